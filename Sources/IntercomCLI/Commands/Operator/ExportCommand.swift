import Foundation
import Synchronization
import IntercomBase
import IntercomHTTP
import IntercomOperator

/// `intercom export CAMERA --from TIME [--to TIME] -o FILE.mp4`: a piece of an operator camera's
/// recording saved as one MP4, the way the operator's own server exports it (Flussonic's
/// `archive-FROM-DURATION.mp4` with the camera's token).
public enum ExportCommand {
    /// Flussonic cuts exports at whatever length is asked; a day keeps a typo from filling the disk.
    static let longest: TimeInterval = 86400

    public static let spec = CommandSpec(
        name: "export",
        arguments: "CAMERA",
        maxPositionals: 1,
        options: [
            .value("--from", "TIME", "where the piece begins: 30m, 2h, 1d ago, 'YYYY-MM-DD HH:MM' local, or RFC 3339"),
            .value("--to", "TIME", "where it ends, in the same forms (default now)"),
            .value("-o", "FILE.mp4", "the file to write (written as FILE.mp4.part, renamed when whole)"),
        ],
        details: """
            CAMERA is an operator camera's id as 'intercom cameras' prints it (home:cam:1). The
            operator's video server (Flussonic) makes the MP4 of the recording between the two
            times; the camera's token rides in the URL and is never printed. On a terminal the
            bytes received so far are shown on standard error. A transfer that fails leaves no
            FILE. For a piece that ended at least 20 s ago, a transfer that broke off keeps
            FILE.part (and FILE.part.source, which piece it is): the same command run again asks
            only for the rest (HTTP Range; a server that answers with the whole piece instead
            replaces the part). A newer piece, which the server may still be adding to, starts over.
            The camera's address and token are kept from the export that found them (in the
            operator's token file) and asked for again when the camera server refuses them.
            A piece the recording keeps nothing of (cctv/ranges) is one line saying where the
            recording resumes (exit 65); a --from in a gap with recording later in the piece says
            where it resumes and goes on. 'intercom cameras --ranges' lists what is kept.
            """,
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        let args = invocation.arguments
        guard let cameraID = args.positionals.first, let parsed = OperatorItemID.parseCamera(cameraID) else {
            return usage("name an operator camera, e.g. 'intercom export home:cam:1 --from 10m -o porch.mp4' (see 'intercom cameras')")
        }
        guard let output = args.value("-o"), !output.isEmpty else { return usage("name the file to write with -o FILE.mp4") }
        let now = Date()
        guard let fromText = args.value("--from") else { return usage("say where the piece begins with --from, e.g. --from 10m") }
        guard let from = time(fromText, now: now) else { return usage("--from takes 30m, 2h, 1d, 'YYYY-MM-DD HH:MM' or RFC 3339; not '\(fromText)'") }
        let to: Date
        if let toText = args.value("--to") {
            guard let parsedTo = time(toText, now: now) else { return usage("--to takes 30m, 2h, 1d, 'YYYY-MM-DD HH:MM' or RFC 3339; not '\(toText)'") }
            to = parsedTo
        } else {
            to = now
        }
        guard from < to else { return usage("--from must come before --to") }
        guard from < now else { return usage("--from is in the future; recordings end now") }
        guard to.timeIntervalSince(from) <= longest else { return usage("a piece is at most a day long; ask for less, or in parts") }
        // libcurl loads while the config and the token file are read.
        let warmUp = HTTPWarmUp.start()
        defer { warmUp.wait() }
        let op: OperatorConfig
        switch OperatorSelection.pick(invocation, name: parsed.operatorName) {
        case .failure(let failure): return failure.report()
        case .success(let found): op = found
        }
        do {
            let client = try OperatorSelection.client(op, environment: invocation.environment)
            // The camera as the last export found it, if any: one round trip less. Its address or token may
            // have changed since; a refusal that could mean so asks the operator once and tries again.
            let kept = client.keptCamera(id: parsed.cameraId)
            var found = kept
            if found == nil { found = try await client.camera(id: parsed.cameraId) }
            guard let camera = found else {
                return CommandError("operator \(op.name) has no camera \(parsed.cameraId); see 'intercom cameras'", code: ExitCode.usage).report()
            }
            // Where the recording resumes, when the start falls in a gap (best effort: an operator
            // without cctv/ranges is asked for the piece as before).
            if let ranges = try? await client.archiveRanges(cameraId: parsed.cameraId) {
                if let gap = ranges.gapLine("camera \(cameraID)", from: from, to: to) {
                    return CommandError(TerminalSafe.escape(gap), code: ExitCode.dataError).report()
                }
                if let resumes = ranges.resumesWithin(from: from, to: to) {
                    Console.error(TerminalSafe.escape("\(cameraID): no recording at \(LocalTime(from).dateAndClock); \(resumes), the piece begins there"))
                }
            }
            let seconds = Int(to.timeIntervalSince(from).rounded(.up))
            let meter = ProgressLine(enabled: isatty(2) == 1)
            // A piece that ended `settled` ago no longer changes on the server: only such a part is continued.
            let resumable = to < now.addingTimeInterval(-Self.settled)
            func save(_ camera: OperatorCamera) async throws -> Int {
                let urls: OperatorCameraURL
                switch OperatorCameraURL.of(camera) {
                case .success(let found): urls = found
                case .failure(let problem): throw CommandError(problem.description, code: ExitCode.unavailable)
                }
                return try await OperatorArchiveDownload.save(urls.archiveMP4(from: from, seconds: seconds), to: output, op: op,
                                                              resumable: resumable, progress: { meter.show($0) })
            }
            let bytes: Int
            do {
                bytes = try await save(camera)
            } catch let failure as OperatorArchiveDownload.Failure where kept != nil && failure.mayBeStale {
                guard let fresh = try await client.camera(id: parsed.cameraId), fresh != camera else { throw failure }
                bytes = try await save(fresh)
            }
            meter.finish()
            Console.out(TerminalSafe.escape("\(cameraID): \(seconds) s from \(ShareCommand.shown(from)) saved to \(output) (\(ProgressLine.size(bytes)))"))
            return ExitCode.ok
        } catch let error as CommandError {
            return error.report()
        } catch let failure as OperatorArchiveDownload.Failure {
            return CommandError(failure.description, code: failure.exitCode).report()
        } catch let error as OperatorError {
            return error.commandError.report()
        } catch {
            return CommandError("\(error)", code: ExitCode.failure).report()
        }
    }

    /// A time as `log --since` takes it (a duration back from now, a local date) or RFC 3339.
    static func time(_ text: String, now: Date) -> Date? {
        JournalQuery.parseSince(text, now: now) ?? (try? GuestTimeParser.parse(text, timeZone: .current))
    }

    /// How long after its end a piece is taken as final (resumable): the camera server writes the
    /// last seconds of a recording a little later.
    static let settled: TimeInterval = 20

    static func usage(_ message: String) -> Int32 {
        CommandError(UsageError(message: message, command: "export").description, code: ExitCode.usage).report()
    }
}

/// The bytes received so far on one line of standard error, redrawn at most ten times a second.
final class ProgressLine: Sendable {
    private let enabled: Bool
    private let last = Mutex<ContinuousClock.Instant?>(nil)

    init(enabled: Bool) { self.enabled = enabled }

    func show(_ bytes: Int) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let due = last.withLock { last -> Bool in
            guard last.map({ now - $0 >= .milliseconds(100) }) ?? true else { return false }
            last = now
            return true
        }
        if due { FileHandle.standardError.write(Data("\r\u{1B}[Kreceived \(Self.size(bytes))".utf8)) }
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }

    /// `2.4 MB`, `170 kB` (by hand: `String(format:)` starts CoreFoundation's formatter for one number).
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20 {
            let tenths = Int((Double(bytes) / 104_857.6).rounded())
            return "\(tenths / 10).\(tenths % 10) MB"
        }
        return "\(Int((Double(bytes) / 1024).rounded())) kB"
    }
}
