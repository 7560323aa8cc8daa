import IntercomImaging

/// iTerm2's inline image (OSC 1337 File=…): a JPEG, which iTerm2 and WezTerm decode
/// themselves. chafa's iTerm2 path re-encodes to TIFF and is 4× slower (chafa#264).
enum ItermEncoder {
    static func bytes(_ image: RGBImage, cols: Int, rows: Int) -> [UInt8] {
        guard let jpeg = try? JPEG.encode(image, quality: 85) else { return [] }
        var out: [UInt8] = Array("\u{1B}]1337;File=inline=1;size=\(jpeg.count);width=\(cols);height=\(rows);preserveAspectRatio=0:".utf8)
        out += Base64.encode(Array(jpeg))
        out.append(0x07)
        return out
    }
}
