import IntercomImaging

/// The kitty graphics protocol, done here rather than through chafa so the image id is ours
/// (a new frame under the same id replaces the old one in place) and tmux wrapping can be
/// applied per chunk. 24-bit RGB deflated with zlib (`o=z`: a 640×480 picture is ~0.9 MB raw,
/// ~1.2 MB in base64), scaled by the terminal into `cols`×`rows` cells.
enum KittyEncoder {
    /// The protocol's limit for one chunk's base64 payload.
    static let chunkSize = 4096

    /// The image as protocol chunks, each a whole `ESC _ G … ESC \` (tmux needs each chunk
    /// wrapped on its own: it limits the length of one passthrough sequence).
    static func chunks(_ image: RGBImage, cols: Int, rows: Int, imageID: Int) -> [[UInt8]] {
        let compressed = Zlib.deflate(image.pixels)
        let payload = Base64.encode(compressed ?? image.pixels)
        let compression = compressed == nil ? "" : ",o=z"
        var out: [[UInt8]] = []
        out.reserveCapacity(payload.count / chunkSize + 1)
        var offset = 0
        var first = true
        repeat {
            let end = min(payload.count, offset + chunkSize)
            let more = end < payload.count
            // q=2: no replies, which would otherwise arrive as keystrokes; C=1: don't move the cursor.
            let control = first
                ? "a=T,f=24,s=\(image.width),v=\(image.height),c=\(cols),r=\(rows),i=\(imageID)\(compression),q=2,C=1,m=\(more ? 1 : 0)"
                : "m=\(more ? 1 : 0)"
            var chunk: [UInt8] = Array("\u{1B}_G\(control);".utf8)
            chunk += payload[offset..<end]
            chunk += [0x1B, 0x5C]
            out.append(chunk)
            offset = end
            first = false
        } while offset < payload.count
        return out
    }

    /// Deletes the image and frees its data (`d=I`). Clearing text does not remove a kitty
    /// image, and inside tmux neither does clearing the screen: it has to be deleted by id.
    static func delete(imageID: Int) -> [UInt8] {
        Array("\u{1B}_Ga=d,d=I,i=\(imageID),q=2\u{1B}\\".utf8)
    }
}
