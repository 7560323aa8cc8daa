import Foundation

/// One sipp run (package `sip-tester`) on loopback with its own SIP and media ports.
///
/// Client scenarios (panel calls) get `remote` = `127.0.0.1:<port>` of the callee or the proxy;
/// server scenarios (UAS) leave it nil and listen on `localPort`.
/// Command line: `sipp -sf <xml> [remote] -s <service> -i 127.0.0.1 -p <port> -mi 127.0.0.1
/// -mp <media port> -m <calls> [-r <rate>] -timeout <t> -timeout_error -nostdin -trace_err -error_file ...
/// -trace_msg -message_file ...`.
package final class Sipp: @unchecked Sendable {
    /// Outcome of a finished run. sipp exits 0 only if every call succeeded.
    package struct Result: Sendable, CustomStringConvertible {
        package let exitCode: Int32
        package let stdout: String
        package let stderr: String
        /// Unexpected messages and aborts (`-trace_err`).
        package let errors: String
        /// Every SIP message sent and received (`-trace_msg`).
        package let messages: String
        package var succeeded: Bool { exitCode == 0 }

        package var description: String {
            "sipp exit \(exitCode)" + HarnessError.tail(errors, lines: 30)
                + HarnessError.tail(messages, lines: 60) + HarnessError.tail(stderr, lines: 10)
        }
    }

    package let name: String
    /// Audio RTP port; video is offered at `mediaPort + 2`.
    package let mediaPort: UInt16
    package let directory: TestDirectory
    /// The SIP port and the process on it. Both change when sipp found its port taken and was started
    /// again on another (`relaunchIfPortTaken`); the lock keeps a reader from seeing one without the other.
    private let state: NSLock = NSLock()
    private var current: (port: UInt16, process: Subprocess)
    /// The arguments but the port's, and whether the caller chose the port (then it is never changed).
    private let arguments: (before: [String], after: [String])
    private let portChosen: Bool
    package var localPort: UInt16 { state.withLock { current.port } }
    package var process: Subprocess { state.withLock { current.process } }

    /// Writes the scenario and starts sipp at once.
    /// - remote: `host:port` to send to (client scenarios), nil for server scenarios.
    /// - service: the Request-URI user (`[service]`), e.g. the called account.
    package init(
        scenario xml: String,
        name: String = "scenario",
        remote: String? = nil,
        service: String = "door",
        localPort: UInt16? = nil,
        timeout: Duration = .seconds(30),
        calls: Int = 1,
        rate: Int? = nil,
        traceMessages: Bool = true,
        localHost: String = "127.0.0.1",
        extraArguments: [String] = []
    ) throws {
        for pcap in Sipp.pcaps(in: xml) { try ExternalTool.requireFile(pcap, package: "sip-tester") }
        self.name = name
        let port = try localPort ?? FreePort.udpAndTCP()
        portChosen = localPort != nil
        mediaPort = try FreePort.udpRange(count: 4)
        directory = try TestDirectory(prefix: "intercom-sipp-\(name)")
        let scenarioURL = try directory.write(xml, to: "\(name).xml")
        var args = ["-sf", scenarioURL.path]
        if let remote { args.append(remote) }
        args += [
            "-s", service,
            "-i", localHost, "-p",
        ]
        let before = args
        args = [
            "-mi", localHost, "-mp", String(mediaPort),
            "-m", String(calls),
            "-timeout", "\(max(1, Int(timeout.components.seconds)))s", "-timeout_error",
            "-nostdin",
            "-trace_err", "-error_file", directory.file("errors.log").path,
        ]
        // Thousands of calls (a scan) would write megabytes of trace for nothing.
        if traceMessages { args += ["-trace_msg", "-message_file", directory.file("messages.log").path] }
        // sipp's own default rate is 10 calls a second.
        if let rate { args += ["-r", String(rate)] }
        args += extraArguments
        arguments = (before, args)
        current = (port, try Subprocess(
            "sipp", before + [String(port)] + args, name: "sipp-\(name)", workingDirectory: directory.url,
            logDirectory: directory.url))
    }

    /// A port free when FreePort chose it can be taken before sipp binds it: liblinphone in another
    /// shard's daemon picks its RTP ports at random over the whole range (a make test run, 2026-12-07:
    /// "Unable to bind main socket, errno = 98"). Then sipp is started again on a new port, at most
    /// three times, unless the caller chose the port. True when it was started again.
    private func relaunchIfPortTaken() throws -> Bool {
        let process = self.process
        guard !portChosen, !process.isRunning, process.stderr.contains("Unable to bind main socket") else { return false }
        let port = try FreePort.udpAndTCP()
        let next = try Subprocess(
            "sipp", arguments.before + [String(port)] + arguments.after, name: "sipp-\(name)",
            workingDirectory: directory.url, logDirectory: directory.url)
        state.withLock { current = (port, next) }
        return true
    }

    /// For server scenarios: waits until sipp holds its UDP port, so a caller's first INVITE is not lost.
    package func waitUntilListening(timeout: Duration = TestPatience.condition) async throws {
        var relaunches = 0
        let listening = try await TestPatience.eventually(within: timeout) {
            if FreePort.isUDPBound(localPort) { return true }
            if relaunches < 3, try relaunchIfPortTaken() {
                relaunches += 1
                return false
            }
            guard process.isRunning else {
                throw HarnessError("sipp \(name) exited before listening" + HarnessError.tail(process.combinedOutput))
            }
            return false
        }
        if !listening {
            throw HarnessError.timeout("sipp \(name) to listen on UDP \(localPort)", after: timeout, log: process.combinedOutput)
        }
    }

    /// `127.0.0.1:<localPort>`: where to send calls for a server scenario.
    package var hostPort: String { "127.0.0.1:\(localPort)" }

    /// Waits for sipp to finish (its own `-timeout` normally ends it first) and collects logs.
    package func finish(timeout: Duration = .seconds(60)) async throws -> Result {
        do {
            var code = try await process.waitForExit(timeout: timeout)
            // A client scenario never waits for its port to be bound: its failure to bind shows here.
            for _ in 0..<3 where try relaunchIfPortTaken() {
                code = try await process.waitForExit(timeout: timeout)
            }
            return collect(code)
        } catch {
            await process.stop()
            throw error
        }
    }

    /// Stops a still-running sipp (e.g. a UAS nobody called) and returns what it logged.
    package func stop() async -> Result {
        await process.stop()
        return collect(process.exitStatus ?? -1)
    }

    package var messages: String { directory.read("messages.log") }

    private func collect(_ code: Int32) -> Result {
        Result(
            exitCode: code, stdout: process.stdout, stderr: process.stderr,
            errors: directory.read("errors.log"), messages: directory.read("messages.log"))
    }

    /// Starts a scenario and waits for it to finish.
    package static func run(
        scenario xml: String, name: String = "scenario", remote: String?, service: String = "door",
        timeout: Duration = .seconds(30), localHost: String = "127.0.0.1"
    ) async throws -> Result {
        let sipp = try Sipp(scenario: xml, name: name, remote: remote, service: service, timeout: timeout,
                            localHost: localHost)
        return try await sipp.finish(timeout: timeout + .seconds(10))
    }

    /// XML of a scenario built into sipp (`sipp -sd <name>`), e.g. "uas" (answers any INVITE, then expects BYE).
    package static func builtinScenario(_ name: String) async throws -> String {
        let dir = try TestDirectory(prefix: "intercom-sipp-sd")
        let r = try await Subprocess.run("sipp", ["-sd", name], logDirectory: dir.url)
        // sipp exits 99 ("normal exit without calls processed") after a dump.
        guard r.stdout.contains("<scenario") else {
            throw HarnessError("sipp -sd \(name) failed (\(r.status)): \(r.stderr)")
        }
        return r.stdout
    }

    /// Absolute pcap paths a scenario plays, so a missing package fails with a clear message.
    private static func pcaps(in xml: String) -> [String] {
        xml.components(separatedBy: "play_pcap_audio=\"").dropFirst().compactMap {
            $0.split(separator: "\"", maxSplits: 1).first.map(String.init)
        }
    }
}
