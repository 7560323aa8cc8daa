import Foundation

/// One kind of value in the config table: how the reference names it (`type`) and how a text
/// becomes a typed value, with the one-line message and fix a user sees when it cannot.
struct ConfigValueParser<T> {
    /// For the reference: `on | off`, `seconds, 1 to 3600`, …
    let type: String
    let parse: (String, ConfigParseContext) throws(ConfigValueError) -> T

    /// Empty means "not set" (nil); anything else goes through `self`.
    var optional: ConfigValueParser<T?> {
        let parse = self.parse
        return ConfigValueParser<T?>(type: type + " (empty = not set)") { text, context throws(ConfigValueError) in
            text.isEmpty ? nil : try parse(text, context)
        }
    }
}

extension ConfigValueParser where T == Bool {
    static var onOff: Self { Self(type: "on | off") { text, _ throws(ConfigValueError) in try ConfigDecoder.onOff(text) } }
}

extension ConfigValueParser where T == Int {
    static func integer(_ range: ClosedRange<Int>, unit: String) -> Self {
        Self(type: "\(unit), \(range.lowerBound) to \(range.upperBound)") { text, _ throws(ConfigValueError) in
            try ConfigDecoder.integer(text, in: range, unit: unit)
        }
    }
}

extension ConfigValueParser where T: RawRepresentable & CaseIterable, T.RawValue == String {
    static var choice: Self {
        Self(type: T.allCases.map(\.rawValue).joined(separator: " | ")) { text, _ throws(ConfigValueError) in
            try ConfigDecoder.choice(text, T.self)
        }
    }
}

extension ConfigValueParser where T == String {
    /// `~/` and `$VAR` expanded; must then start with `/`.
    static var absolutePath: Self {
        Self(type: "absolute path (`~/` and `$VAR` expanded)") { text, context throws(ConfigValueError) in
            try ConfigDecoder.absolutePath(text, expander: context.expander)
        }
    }

    static func sipURI(example: String = "sip:101@pbx.example.org") -> Self {
        Self(type: "sip: or sips: URI, no password in it") { text, _ throws(ConfigValueError) in
            try ConfigDecoder.sipURI(text, example: example)
        }
    }

    static func httpURL(example: String) -> Self {
        Self(type: "http:// or https:// URL, no user or password in it") { text, _ throws(ConfigValueError) in
            try ConfigDecoder.panelURL(text, example: example)
        }
    }

    static var dtmf: Self {
        Self(type: "DTMF digits 0-9 * # A-D") { text, _ throws(ConfigValueError) in try ConfigDecoder.dtmf(text) }
    }

    /// A device name; empty means "default" so that `capture =` in a template is harmless.
    static var audioDevice: Self {
        Self(type: "device name (empty = default)") { text, _ throws(ConfigValueError) in
            text.isEmpty ? "default" : text
        }
    }

    /// Free text kept as written (a password or user name; never echoed).
    static var text: Self { Self(type: "text") { text, _ throws(ConfigValueError) in text } }
}

extension ConfigValueParser where T == Double {
    /// A decimal number of `unit` in `range` (lower bound excluded when `openBelow`).
    static func decimal(_ range: ClosedRange<Double>, openBelow: Bool = false, type: String,
                        message: @escaping (String) -> String, fix: String) -> Self {
        Self(type: type) { text, _ throws(ConfigValueError) in
            guard let number = Double(text), number.isFinite, range.contains(number),
                  !(openBelow && number == range.lowerBound) else {
                throw ConfigValueError(message(text), fix: fix)
            }
            return number
        }
    }
}

extension ConfigValueParser where T == PanelStreamSetting {
    static func panelStream(example: String) -> Self {
        Self(type: "rtsp:// URL without user or password | off (empty = derived from url)") { text, _ throws(ConfigValueError) in
            try ConfigDecoder.panelStream(text, example: example)
        }
    }
}
