import Foundation
import IntercomImaging

/// The simulated panel's camera picture: a porch with a door under a sky gradient,
/// a sun that crosses the sky, a clock hand and a frame counter, so a viewer can
/// tell at a glance that pictures arrive and that they are fresh.
public enum SyntheticFrame {
    public static let width = 640
    public static let height = 480

    public static func render(frame: Int, label: String, time: String) -> RGBImage {
        // The still parts are drawn once; each frame copies them and draws what moves on top (the
        // simulated camera renders 25 of these a second, in debug builds too).
        var c = background

        // The sun moves 8 px per frame so consecutive snapshots differ visibly.
        let sunX = (frame * 8) % (width + 80) - 40
        c.disc(cx: sunX, cy: 70, r: 28, (250, 210, 60))

        // The panel's button blinks.
        c.disc(cx: 455, cy: 315, r: 8, frame % 2 == 0 ? (80, 200, 255) : (40, 120, 170))

        // A clock hand: one revolution every 60 frames.
        let angle = Double(frame % 60) / 60 * 2 * Double.pi
        let hx = clock.x + Int((Double(clock.r - 8) * sin(angle)).rounded())
        let hy = clock.y - Int((Double(clock.r - 8) * cos(angle)).rounded())
        c.line(x0: clock.x, y0: clock.y, x1: hx, y1: hy, thickness: 5, (200, 30, 30))

        // Counter and clock text on a dark strip for contrast.
        c.fill(x: 0, y: 0, w: width, h: 40, (0, 0, 0))
        c.text(label, x: 10, y: 8, scale: 5, (255, 255, 255))
        c.text(String(format: "#%06d", frame), x: 300, y: 8, scale: 5, (255, 255, 0))
        c.text(time, x: 480, y: 12, scale: 4, (180, 255, 180))

        return RGBImage(width: width, height: height, pixels: c.pixels) ?? RGBImage(width: width, height: height)
    }

    private static let clock = (x: 560, y: 200, r: 45)

    /// Sky, wall, door, the panel's body and the clock's face: nothing that moves. The sun's path
    /// (y 42–98), the button and the clock hand never overlap the other still parts' edges, so
    /// drawing them on top gives the same picture as drawing everything in order.
    private static let background: Canvas = {
        var c = Canvas(width: width, height: height)
        let horizon = 300

        for y in 0..<horizon {
            // Deep blue at the top fading to a pale horizon.
            let t = y * 255 / horizon
            c.fill(x: 0, y: y, w: width, h: 1, (UInt8(30 + t * 120 / 255), UInt8(60 + t * 150 / 255), UInt8(140 + t * 110 / 255)))
        }
        // Wall and ground.
        c.fill(x: 0, y: horizon, w: width, h: height - horizon, (120, 110, 100))
        for row in stride(from: horizon, to: height, by: 20) {
            c.fill(x: 0, y: row, w: width, h: 2, (95, 85, 78))
        }

        // The door: frame, leaf, panels and handle.
        c.fill(x: 240, y: 160, w: 160, h: 320, (70, 50, 35))
        c.fill(x: 252, y: 172, w: 136, h: 308, (140, 90, 50))
        c.fill(x: 270, y: 195, w: 100, h: 110, (120, 75, 40))
        c.fill(x: 270, y: 330, w: 100, h: 120, (120, 75, 40))
        c.disc(cx: 370, cy: 320, r: 7, (230, 200, 80))
        // The panel itself beside the door (its button is drawn per frame).
        c.fill(x: 430, y: 250, w: 50, h: 90, (40, 40, 45))

        // The clock's face.
        c.disc(cx: clock.x, cy: clock.y, r: clock.r, (240, 240, 240))
        return c
    }()
}
