import Foundation
import IntercomTestSupport
import IntercomBase
import IntercomSimulator
import IntercomPhoneTestSupport
import Testing

/// `intercom export` against the simulated operator's camera, whose recording keeps about a minute:
/// `archive-FROM-DURATION.mp4` as one H.264 MP4, the command's file the same piece and no slower
/// than curl fetching the same URL (≤ 1.2× plus the two API calls that find the camera), and a
/// time the camera no longer keeps one line, exit 69, and no file.
@Suite(.serialized, .removesTestFolders) struct OperatorSimulatorExportTests {
    @Test func exportSavesTheRecordingAsCurlWouldFetchIt() async throws {
        try await withOperator { simulator, curl in
            // The camera's address as cctv/all gives it ({root}/cctv/ID).
            let url = simulator.baseURL.replacingOccurrences(of: "/mobile", with: "/cctv/1")
            let key = simulator.cameraToken
            // The first request starts the camera; wait until 8 s of it are kept.
            _ = try await curl.get("\(url)/index.m3u8?token=\(key)")
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: .seconds(40))
            var from = 0
            var keptText = ""
            guard try await TestPatience.eventually(within: .seconds(40), every: .milliseconds(500), {
                from = Int(Date().timeIntervalSince1970) - 9
                let kept = try await curl.get("\(url)/index-\(from)-8.m3u8?token=\(key)")
                keptText = kept.text
                return kept.status == 200 && kept.text.components(separatedBy: ".ts?").count - 1 >= 8
            }) else { throw HarnessError("the camera kept no 8 s in 40 s: \(keptText)") }

            let directory = curl.directory
            let config = try IntercomBinary.writeConfig("[operator home]\napi = \(simulator.baseURL)\nphone = 79123456781\n", in: directory)
            func intercom(_ arguments: [String], stdin: String? = nil) async throws -> (status: Int32, stdout: String, stderr: String) {
                try await IntercomBinary.run(arguments + ["--config", config.path], in: directory, stdin: stdin, timeout: .seconds(60))
            }
            #expect(try await intercom(["login", "--sms"], stdin: "1001").status == 0)

            let curled = directory.file("curl.mp4")
            let curlStart = clock.now
            let fetched = try await Subprocess.run("curl", ["-s", "-f", "-o", curled.path, "\(url)/archive-\(from)-8.mp4?token=\(key)"],
                                                   logDirectory: directory.url, timeout: .seconds(60))
            let curlTime = clock.now - curlStart
            #expect(fetched.status == 0, "\(fetched)")

            let output = directory.file("porch.mp4")
            let stamp = ISO8601DateFormatter()
            let exportStart = clock.now
            let exported = try await intercom(["export", "home:cam:1", "--from", stamp.string(from: Date(timeIntervalSince1970: TimeInterval(from))),
                                               "--to", stamp.string(from: Date(timeIntervalSince1970: TimeInterval(from + 8))),
                                               "-o", output.path])
            let exportTime = clock.now - exportStart
            #expect(exported.status == 0 && exported.stdout.contains("home:cam:1: 8 s from") && !exported.stdout.contains(key),
                    "\(exported)")
            #expect(exportTime <= curlTime * 1.2 + .milliseconds(300), "export \(exportTime), curl \(curlTime)")
            let probed = try await Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries",
                                                              "stream=codec_name,width,height:format=duration", "-of", "csv=p=0", output.path],
                                                  logDirectory: directory.url, timeout: .seconds(20))
            #expect(probed.stdout.contains("h264,640,480"), "\(probed)")
            let duration = probed.stdout.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.first ?? 0
            #expect(duration >= 6, "\(probed)")
            #expect(!FileManager.default.fileExists(atPath: output.path + ".part"))
            // The camera's address and token are kept in the token file (0600, beside the access token):
            // the next export asks no cctv/all, and one whose kept token the camera server refuses asks once more.
            let tokenFile = directory.path + "/state/intercom/operators/home.json"
            let keptFile = try String(contentsOfFile: tokenFile, encoding: .utf8)
            #expect(keptFile.contains("\"cameras\"") && keptFile.contains(key))
            let lookups = simulator.requestCount("cctv/all")
            let again = try await intercom(["export", "home:cam:1", "--from", stamp.string(from: Date(timeIntervalSince1970: TimeInterval(from))),
                                            "--to", stamp.string(from: Date(timeIntervalSince1970: TimeInterval(from + 8))),
                                            "-o", output.path])
            #expect(again.status == 0 && simulator.requestCount("cctv/all") == lookups, "\(again)")
            try keptFile.replacingOccurrences(of: key, with: "stale").write(toFile: tokenFile, atomically: true, encoding: .utf8)
            chmod(tokenFile, 0o600)
            let refreshed = try await intercom(["export", "home:cam:1", "--from", stamp.string(from: Date(timeIntervalSince1970: TimeInterval(from))),
                                                "--to", stamp.string(from: Date(timeIntervalSince1970: TimeInterval(from + 8))),
                                                "-o", output.path])
            #expect(refreshed.status == 0 && simulator.requestCount("cctv/all") == lookups + 1, "\(refreshed)")
            #expect(try String(contentsOfFile: tokenFile, encoding: .utf8).contains(key))
            // A link left where the part goes is removed, never written through.
            let victim = directory.file("victim.txt")
            try Data("keep me".utf8).write(to: victim)
            let linked = directory.file("linked.mp4")
            try FileManager.default.createSymbolicLink(atPath: linked.path + ".part", withDestinationPath: victim.path)
            let throughLink = try await intercom(["export", "home:cam:1", "--from", stamp.string(from: Date(timeIntervalSince1970: TimeInterval(from))),
                                                  "--to", stamp.string(from: Date(timeIntervalSince1970: TimeInterval(from + 8))),
                                                  "-o", linked.path])
            #expect(throughLink.status == 0, "\(throughLink)")
            #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me")

            // log --export: the recording around the entry an opening through the operator left, from the
            // camera of that entry's panel (cctv/camMap).
            #expect(try await intercom(["open", "home:1:0"]).status == 0)
            let clips = directory.path + "/clips"
            let logged = try await intercom(["log", "--operator", "home", "--since", "1h", "--export", clips, "--around", "3s"])
            #expect(logged.status == 0 && logged.stdout.contains("opened_by_app: saved to \(clips)/home-"), "\(logged)")
            let saved = try FileManager.default.contentsOfDirectory(atPath: clips).filter { $0.hasSuffix("-opened_by_app.mp4") }
            #expect(saved.count == 1, "\(saved)")
            let clip = try Data(contentsOf: URL(fileURLWithPath: clips + "/" + (saved.first ?? "none")))
            #expect(clip.count > 8 && clip[4..<8] == Data("ftyp".utf8))
            #expect(try await intercom(["log", "--around", "3s"]).status == 64)

            let old = directory.file("old.mp4")
            let gone = try await intercom(["export", "home:cam:1", "--from", "1d", "--to", "23h", "-o", old.path])
            // cctv/ranges says what is kept: a time before it says where the recording resumes (65).
            #expect(gone.status == 65 && gone.stderr.contains("has no recording at") && gone.stderr.contains("the recording resumes at"),
                    "\(gone)")
            #expect(gone.stderr.split(separator: "\n").count == 1, "\(gone)")
            #expect(!FileManager.default.fileExists(atPath: old.path) && !FileManager.default.fileExists(atPath: old.path + ".part"))
            #expect(try await intercom(["export", "home:cam:9", "--from", "10s", "-o", old.path]).status == 64)
            #expect(try await intercom(["export", "home:cam:1", "--from", "soon", "-o", old.path]).status == 64)

            // Resumed: the part of this very piece a broken transfer left is continued with a Range (206,
            // as SmartYard's cctv/download answers one), and the file is the whole piece again.
            // Only a piece that ended 20 s ago is continued (the server may still add to a newer one): wait
            // for that (the checks above ran meanwhile; the piece is the first 2 s, which settles first), and
            // take the reference then.
            guard await TestPatience.eventually(within: max(.zero, clock.now.duration(to: deadline.advanced(by: .seconds(60)))),
                                                every: .milliseconds(250), { Date().timeIntervalSince1970 >= TimeInterval(from + 2 + 21) })
            else { throw HarnessError("the clock stood still") }
            let settled = try await Subprocess.run("curl", ["-s", "-f", "-o", curled.path, "\(url)/archive-\(from)-2.mp4?token=\(key)"],
                                                   logDirectory: directory.url, timeout: .seconds(60))
            #expect(settled.status == 0, "\(settled)")
            let whole = try Data(contentsOf: curled)
            let resumed = directory.file("resumed.mp4")
            func leavePart(_ bytes: Data, piece: String) throws {
                try bytes.write(to: URL(fileURLWithPath: resumed.path + ".part"))
                try Data(piece.utf8).write(to: URL(fileURLWithPath: resumed.path + ".part.source"))
            }
            let window = ["--from", stamp.string(from: Date(timeIntervalSince1970: TimeInterval(from))),
                          "--to", stamp.string(from: Date(timeIntervalSince1970: TimeInterval(from + 2))), "-o", resumed.path]
            try leavePart(whole.prefix(whole.count / 2), piece: "\(url)/archive-\(from)-2.mp4")
            let partials = simulator.requestCount("status:206")
            let continued = try await intercom(["export", "home:cam:1"] + window)
            #expect(continued.status == 0, "\(continued)")
            #expect(simulator.requestCount("status:206") == partials + 1)
            #expect(try Data(contentsOf: resumed) == whole)
            #expect(!FileManager.default.fileExists(atPath: resumed.path + ".part")
                    && !FileManager.default.fileExists(atPath: resumed.path + ".part.source"))
            // A part of another piece is never continued: the export starts over.
            try leavePart(Data("not this piece".utf8), piece: "\(url)/archive-\(from - 60)-2.mp4")
            let over = try await intercom(["export", "home:cam:1"] + window)
            #expect(over.status == 0 && simulator.requestCount("status:206") == partials + 1, "\(over)")
            #expect(try Data(contentsOf: resumed) == whole)
        }
    }
}
