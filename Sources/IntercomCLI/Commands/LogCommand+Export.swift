import Foundation
import IntercomBase
import IntercomOperator

/// `intercom log … --export DIR [--around 30s]`: the recording around each operator entry the
/// query selects, from the camera of the entry's panel (`cctv/camMap`) or the entry's camera, saved
/// as `DIR/OPERATOR-YYYYMMDD-HHMMSS-EVENT.mp4` (as `intercom export` saves a piece).
extension LogCommand {
    /// `--around`: `30s`, `2m` or seconds; at most ten minutes either side.
    static func around(_ text: String?) -> TimeInterval? {
        guard let text else { return 30 }
        let unit: TimeInterval = text.hasSuffix("m") ? 60 : 1
        guard let value = Double(text.hasSuffix("m") || text.hasSuffix("s") ? String(text.dropLast()) : text),
              value > 0, value * unit <= 600 else { return nil }
        return value * unit
    }

    static func export(_ entries: [JournalEntry], to folder: String, around: TimeInterval, config: IntercomConfig,
                       environment: [String: String]) async -> Int32 {
        let chosen = entries.filter { $0.kind == .operatorEvent && $0.operatorName != nil }.sorted { $0.time < $1.time }
        guard !chosen.isEmpty else {
            return Console.fail("no operator entry matches: --export saves the recording around operator entries "
                                + "(--operator NAME, --since)", code: ExitCode.dataError)
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            return Console.fail("cannot make \(folder): \(error.localizedDescription)", code: ExitCode.failure)
        }
        var failed: Int32?
        let now = Date()
        for (name, group) in Dictionary(grouping: chosen, by: { $0.operatorName ?? "" }).sorted(by: { $0.key < $1.key }) {
            guard let op = config.operator(named: name) else { continue }
            do {
                let client = try OperatorSelection.client(op, environment: environment)
                let panelCameras = try await client.panelCameras()
                for entry in group {
                    let label = TerminalSafe.escape("\(op.name) \(localTime(entry.time)) \(entry.event ?? "event")")
                    let camera = try await Self.camera(of: entry, client: client, panelCameras: panelCameras)
                    guard let camera else {
                        Console.error("\(label): no camera of this entry is known (an entry copied before this version, or a panel without one)")
                        failed = failed ?? ExitCode.unavailable
                        continue
                    }
                    guard case .success(let urls) = OperatorCameraURL.of(camera) else {
                        Console.error("\(label): the camera has no recording this client can fetch")
                        failed = failed ?? ExitCode.unavailable
                        continue
                    }
                    let from = entry.time.addingTimeInterval(-around)
                    let to = min(now, entry.time.addingTimeInterval(around))
                    let file = folder + "/" + fileName(op.name, entry)
                    do {
                        let bytes = try await OperatorArchiveDownload.save(
                            urls.archiveMP4(from: from, seconds: max(1, Int(to.timeIntervalSince(from).rounded(.up)))), to: file, op: op,
                            resumable: to < now.addingTimeInterval(-ExportCommand.settled))
                        Console.out(TerminalSafe.escape("\(label): saved to \(file) (\(ProgressLine.size(bytes)))"))
                    } catch let failure as OperatorArchiveDownload.Failure {
                        Console.error(TerminalSafe.escape("\(label): \(failure.description)"))
                        failed = failed ?? failure.exitCode
                    }
                }
            } catch let error as OperatorError {
                Console.error(TerminalSafe.escape(error.commandError.message))
                failed = failed ?? error.commandError.code
            } catch {
                Console.error("\(op.name): \(error)")
                failed = failed ?? ExitCode.failure
            }
        }
        return failed ?? ExitCode.ok
    }

    /// The camera that saw the entry: the one the operator named (`cameraId`, in `cctv/all`), else
    /// its entrance's in the camera map (`entranceId`: the same camera, as camMap lists it), else the
    /// panel's first entrance's (an entry copied before the journal kept the camera).
    static func camera(of entry: JournalEntry, client: OperatorClient, panelCameras: OperatorCameraMap)
        async throws(OperatorError) -> OperatorCamera? {
        if let id = entry.cameraId ?? entry.eventDetail?["camera"]?.stringValue, let listed = try await client.camera(id: id) {
            return listed
        }
        if let entrance = entry.entranceId, let mapped = panelCameras.camera(entranceId: entrance) { return mapped.camera }
        return entry.eventDetail?["domophone"]?.stringValue.flatMap { panelCameras[$0] }
    }

    /// `OPERATOR-YYYYMMDD-HHMMSS-EVENT.mp4`, of letters, digits, `-` and `_` only (the operator's name
    /// is the config's, the event a word; neither may climb out of DIR).
    static func fileName(_ operatorName: String, _ entry: JournalEntry) -> String {
        func safe(_ text: String) -> String {
            String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "_" })
        }
        return "\(safe(operatorName))-\(LocalTime(entry.time).fileStamp)-\(safe(entry.event ?? "event")).mp4"
    }
}
