/// Wraps a sequence for tmux (`allow-passthrough on`, tmux ≥ 3.3): `ESC P tmux; … ESC \` with
/// every ESC inside doubled. Debian's chafa 1.12 can't do this itself (the API came in 1.14).
enum TmuxPassthrough {
    static func wrap(_ sequence: [UInt8]) -> [UInt8] {
        var out: [UInt8] = Array("\u{1B}Ptmux;".utf8)
        out.reserveCapacity(sequence.count + sequence.count / 64 + 10)
        for byte in sequence {
            if byte == 0x1B { out.append(0x1B) }
            out.append(byte)
        }
        out += [0x1B, 0x5C]
        return out
    }
}
