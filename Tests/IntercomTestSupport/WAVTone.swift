import Foundation

/// Writes sine-tone WAVs and finds the dominant frequency of a WAV, to check that a call carried a tone.
package enum WAVTone {
    /// 16-bit mono PCM WAV of a sine at `frequency` Hz.
    package static func write(
        to url: URL, frequency: Double, seconds: Double, sampleRate: Int = 8000, amplitude: Double = 0.5
    ) throws {
        let count = Int(seconds * Double(sampleRate))
        var pcm = Data(capacity: count * 2)
        for n in 0..<count {
            let v = amplitude * sin(2 * Double.pi * frequency * Double(n) / Double(sampleRate))
            let s = Int16(max(-1, min(1, v)) * Double(Int16.max))
            withUnsafeBytes(of: s.littleEndian) { pcm.append(contentsOf: $0) }
        }
        var data = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); u32(UInt32(36 + pcm.count))
        data.append(contentsOf: Array("WAVE".utf8))
        data.append(contentsOf: Array("fmt ".utf8)); u32(16)
        u16(1)  // PCM
        u16(1)  // mono
        u32(UInt32(sampleRate)); u32(UInt32(sampleRate * 2)); u16(2); u16(16)
        data.append(contentsOf: Array("data".utf8)); u32(UInt32(pcm.count))
        data.append(pcm)
        try data.write(to: url)
    }

    /// First channel of a 16-bit PCM WAV as samples in -1...1. Tolerates extra chunks and a data size
    /// left at 0 or too large by a recorder that was not closed cleanly.
    package static func readSamples(wavPath: String) throws -> (samples: [Double], sampleRate: Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: wavPath)))
        func u32(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 | Int(bytes[o + 2]) << 16 | Int(bytes[o + 3]) << 24 }
        func u16(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 }
        guard bytes.count >= 12, bytes[0..<4] == [0x52, 0x49, 0x46, 0x46], bytes[8..<12] == [0x57, 0x41, 0x56, 0x45] else {
            throw HarnessError("\(wavPath) is not a RIFF/WAVE file")
        }
        var offset = 12
        var channels = 0, rate = 0, bits = 0
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            var size = u32(offset + 4)
            let body = offset + 8
            if id == "fmt " {
                channels = u16(body + 2); rate = u32(body + 4); bits = u16(body + 14)
            } else if id == "data" {
                guard channels > 0, bits == 16 else { throw HarnessError("\(wavPath): only 16-bit PCM is supported (bits \(bits))") }
                if size == 0 || body + size > bytes.count { size = bytes.count - body }
                let frame = 2 * channels
                var samples = [Double]()
                samples.reserveCapacity(size / frame)
                var o = body
                while o + 1 < body + size {
                    samples.append(Double(Int16(bitPattern: UInt16(u16(o)))) / 32768)
                    o += frame
                }
                return (samples, rate)
            }
            offset = body + size + (size & 1)
        }
        throw HarnessError("\(wavPath): no data chunk")
    }

    /// Goertzel power of `frequency` over `samples` (relative units).
    package static func power(of frequency: Double, in samples: ArraySlice<Double>, sampleRate: Int) -> Double {
        let w = 2 * Double.pi * frequency / Double(sampleRate)
        let coeff = 2 * cos(w)
        var s1 = 0.0, s2 = 0.0
        for x in samples {
            let s0 = x + coeff * s1 - s2
            s2 = s1
            s1 = s0
        }
        return s1 * s1 + s2 * s2 - coeff * s1 * s2
    }

    /// The strongest frequency in the WAV: a 10 Hz Goertzel scan from 100 Hz to `maxFrequency` (or Nyquist), refined in 1 Hz
    /// steps. Analyses up to 0.5 s (8192 samples) from the loudest part so call setup silence does not matter.
    /// Returns nil for silence.
    /// The strongest frequency of a call's recording, which its phone closes when the call ends: waits
    /// up to `timeout` until the file holds at least half a second of 8 kHz audio.
    package static func dominantFrequency(recording url: URL, timeout: Duration = .seconds(5)) async throws -> Double? {
        var size = 0
        let recorded = await TestPatience.eventually(within: timeout, every: .milliseconds(50)) {
            size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
            return size > 44 + 8000
        }
        guard recorded else { throw HarnessError("no recording at \(url.path) (size \(size)) \(timeout) after the call ended") }
        return try dominantFrequency(wavPath: url.path)
    }

    package static func dominantFrequency(wavPath: String, maxFrequency: Double = 4000) throws -> Double? {
        let (samples, rate) = try readSamples(wavPath: wavPath)
        guard rate > 0, samples.count >= rate / 20 else { return nil }
        let window = min(samples.count, rate / 2, 8192)
        // Loudest window (hop of a quarter window), so leading silence or ringback does not dominate.
        var best = 0, bestEnergy = -1.0
        var start = 0
        while start + window <= samples.count {
            let e = samples[start..<start + window].reduce(0) { $0 + $1 * $1 }
            if e > bestEnergy { bestEnergy = e; best = start }
            start += max(1, window / 4)
        }
        let rms = (bestEnergy / Double(window)).squareRoot()
        guard rms > 0.001 else { return nil }
        let slice = samples[best..<best + window]
        let nyquist = min(Double(rate) / 2 - 50, maxFrequency)
        var peak = 100.0, peakPower = -1.0
        for f in stride(from: 100.0, through: nyquist, by: 10) {
            let p = power(of: f, in: slice, sampleRate: rate)
            if p > peakPower { peakPower = p; peak = f }
        }
        for f in stride(from: peak - 10, through: peak + 10, by: 1) {
            let p = power(of: f, in: slice, sampleRate: rate)
            if p > peakPower { peakPower = p; peak = f }
        }
        return peak
    }
}
