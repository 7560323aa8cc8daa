/// One `key = value` line of `intercom config --example`, with the comment lines beside it.
struct ConfigExampleLine {
    /// The key as written; nil = the table key's own name (a pattern key such as `on_EVENT`
    /// names a real one here).
    var key: String?
    var value: String
    /// Printed from the comment column, the first beside the value, the rest below it.
    var comments: [String]
    /// Written as `# key = value`: shown, not in force.
    var commentedOut: Bool
    /// The key is padded to this width so that a group of lines lines up its `=`.
    var keyWidth: Int
    /// Whole lines printed before this one (a comment that introduces a group of keys).
    var before: [String]

    init(key: String? = nil, _ value: String, _ comments: [String] = [], width: Int = 0,
         commentedOut: Bool = false, before: [String] = []) {
        self.key = key
        self.value = value
        self.comments = comments
        self.commentedOut = commentedOut
        self.keyWidth = width
        self.before = before
    }
}
