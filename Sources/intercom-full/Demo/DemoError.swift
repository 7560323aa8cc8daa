/// Why `intercom demo` could not set up its simulators; one line for the user.
struct DemoError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
