/// The untyped result of reading an INI file: sections in file order.
/// Kept separate from the typed model so syntax and meaning are checked in
/// two small steps, each with its own precise error.
public struct INIDocument: Sendable, Equatable {
    public var sections: [INISection]

    public init(sections: [INISection] = []) {
        self.sections = sections
    }
}
