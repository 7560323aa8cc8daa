/// One documented name (an event, a control-socket command, an exit code): what the generated
/// reference (docs/REFERENCE.md) and the man pages say about it. Text is Markdown inline
/// (`code`, *emphasis*); the man page renderer turns it into roff.
public struct ReferenceEntry: Sendable, Equatable {
    public var name: String
    /// The JSON fields or arguments it carries, as shown (may be empty).
    public var fields: String
    public var about: String

    public init(_ name: String, fields: String = "", _ about: String) {
        self.name = name
        self.fields = fields
        self.about = about
    }
}
