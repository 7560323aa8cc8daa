/// Reads the small INI dialect of `config.ini`.
///
/// Comments: a line whose first non-blank character is `#` or `;`, and the
/// rest of a line from a `#`/`;` that follows whitespace. Requiring the
/// whitespace keeps values such as `sip:100001@host;transport=tcp` or a DTMF
/// string `1#` intact; a value that must start with `#` or keep edge spaces is
/// written in double quotes. Errors never echo the offending line, because it
/// may be a mistyped `password` line.
public struct INIParser: Sendable {
    /// Shown in messages; the path as the user gave it.
    public var file: String

    public init(file: String) {
        self.file = file
    }

    public func parse(_ text: String) throws(ConfigError) -> INIDocument {
        var sections: [INISection] = []
        var current: INISection?
        var seenHeaders: [String: Int] = [:]

        var body = Substring(text)
        if body.first == "\u{FEFF}" { body = body.dropFirst() }
        let lines = body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)

        for (index, rawLine) in lines.enumerated() {
            let lineNumber = index + 1
            let line = rawLine.trimmingWhitespace()
            if line.isEmpty || line.first == "#" || line.first == ";" { continue }

            if line.first == "[" {
                if let finished = current { sections.append(finished) }
                let section = try parseHeader(line, lineNumber: lineNumber)
                let identity = section.label
                if let first = seenHeaders[identity] {
                    throw ConfigError(file: file, line: lineNumber, section: identity,
                                      message: "section appears twice (first on line \(first))",
                                      fix: "merge the two sections")
                }
                seenHeaders[identity] = lineNumber
                current = section
                continue
            }

            guard let equals = line.firstIndex(of: "=") else {
                throw ConfigError(file: file, line: lineNumber, section: current?.label,
                                  message: "line is not 'key = value', a [section] or a comment",
                                  fix: "add '=' or start the line with '#'")
            }
            let key = String(line[..<equals].trimmingWhitespace())
            guard !key.isEmpty else {
                throw ConfigError(file: file, line: lineNumber, section: current?.label,
                                  message: "empty key before '='", fix: "write 'key = value'")
            }
            guard !key.contains(where: { $0.isWhitespace }) else {
                throw ConfigError(file: file, line: lineNumber, key: key, section: current?.label,
                                  message: "keys cannot contain spaces",
                                  fix: "use '_' or '.' inside key names")
            }
            guard var section = current else {
                throw ConfigError(file: file, line: lineNumber, key: key,
                                  message: "key is outside any [section]",
                                  fix: "move it below a header such as [sip]")
            }
            if let first = section.entry(key) {
                throw ConfigError(file: file, line: lineNumber, key: key, section: section.label,
                                  message: "key is set twice (first on line \(first.line))",
                                  fix: "keep only one of them")
            }
            let (value, quoted) = try parseValue(line[line.index(after: equals)...],
                                                 lineNumber: lineNumber, key: key,
                                                 section: section.label)
            section.entries.append(INIEntry(key: key, value: value, line: lineNumber, quoted: quoted))
            current = section
        }
        if let finished = current { sections.append(finished) }
        return INIDocument(sections: sections)
    }

    private func parseHeader(_ line: Substring, lineNumber: Int) throws(ConfigError) -> INISection {
        guard let close = line.firstIndex(of: "]") else {
            throw ConfigError(file: file, line: lineNumber,
                              message: "section header has no closing ']'",
                              fix: "write it as [section] or [section name]")
        }
        let rest = line[line.index(after: close)...].trimmingWhitespace()
        guard rest.isEmpty || rest.first == "#" || rest.first == ";" else {
            throw ConfigError(file: file, line: lineNumber,
                              message: "text after the section header",
                              fix: "put a '#' before a comment")
        }
        let inside = line[line.index(after: line.startIndex)..<close].trimmingWhitespace()
        guard !inside.isEmpty else {
            throw ConfigError(file: file, line: lineNumber, message: "empty section header '[]'",
                              fix: "write it as [section] or [section name]")
        }
        guard let gap = inside.firstIndex(where: { $0.isWhitespace }) else {
            return INISection(kind: String(inside), line: lineNumber)
        }
        let kind = String(inside[..<gap])
        let name = String(inside[gap...].trimmingWhitespace())
        return INISection(kind: kind, name: name, line: lineNumber)
    }

    private func parseValue(_ raw: Substring, lineNumber: Int, key: String,
                            section: String) throws(ConfigError) -> (String, Bool) {
        let text = raw.trimmingLeadingWhitespace()
        if text.first == "\"" {
            return (try parseQuoted(text, lineNumber: lineNumber, key: key, section: section), true)
        }
        // A comment marker right after '=' counts as preceded by whitespace:
        // `guest_until =   # note` means an empty value, not "# note".
        var previousIsSpace = true
        var end = text.endIndex
        for index in text.indices {
            let character = text[index]
            if (character == "#" || character == ";") && previousIsSpace {
                end = index
                break
            }
            previousIsSpace = character.isWhitespace
        }
        return (String(text[..<end].trimmingWhitespace()), false)
    }

    private func parseQuoted(_ text: Substring, lineNumber: Int, key: String,
                             section: String) throws(ConfigError) -> String {
        var value = ""
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            if character == "\\" {
                let next = text.index(after: index)
                if next < text.endIndex, text[next] == "\"" || text[next] == "\\" {
                    value.append(text[next])
                    index = text.index(after: next)
                    continue
                }
                value.append(character)
            } else if character == "\"" {
                let rest = text[text.index(after: index)...].trimmingWhitespace()
                guard rest.isEmpty || rest.first == "#" || rest.first == ";" else {
                    throw ConfigError(file: file, line: lineNumber, key: key, section: section,
                                      message: "text after the closing quote",
                                      fix: "put a '#' before a comment, or the text inside the quotes")
                }
                return value
            } else {
                value.append(character)
            }
            index = text.index(after: index)
        }
        throw ConfigError(file: file, line: lineNumber, key: key, section: section,
                          message: "value has no closing '\"'",
                          fix: "end the quoted value with '\"'")
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> Substring {
        trimmingLeadingWhitespace().trimmingTrailingWhitespace()
    }

    fileprivate func trimmingLeadingWhitespace() -> Substring {
        guard let first = firstIndex(where: { !$0.isWhitespace }) else { return self[endIndex...] }
        return self[first...]
    }

    fileprivate func trimmingTrailingWhitespace() -> Substring {
        guard let last = lastIndex(where: { !$0.isWhitespace }) else { return self[endIndex...] }
        return self[...last]
    }
}
