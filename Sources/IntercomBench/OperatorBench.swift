import Foundation
import IntercomBase
import IntercomSimulator

/// Issue 12: `intercom open ID` of an operator door and `intercom doors` against the simulated
/// SmartYard operator in the bench process, each beside the same API requests made by the `curl`
/// command, interleaved run by run so both sides meet the same load.
enum OperatorBench {
    /// One command measured beside its curl twin.
    struct Pair {
        var ours = Samples()
        var curl = Samples()
        /// CPU time (user + system) of each side.
        var oursCPU = Samples()
        var curlCPU = Samples()
        /// Our own time over the server's: our median minus curl's.
        var overhead: Double { ours.median - curl.median }

        mutating func add(_ pair: (ours: TimedRun, curl: TimedRun)) {
            ours.add(pair.ours.milliseconds)
            curl.add(pair.curl.milliseconds)
            oursCPU.add(pair.ours.cpuMilliseconds)
            curlCPU.add(pair.curl.cpuMilliseconds)
        }
    }

    struct Result {
        var open = Pair()
        var doors = Pair()
        /// `intercom doors` with no operator and no panel: process start and config, no request;
        /// measured in the open rounds, so under the same load.
        var startup = Samples()
        var startupCPU = Samples()
        var doorCount = 0
        var runs = 0
        /// API requests the simulator counted, against those the bench made.
        var openRequests = 0
        var expectedOpenRequests = 0
        /// Door requests the simulated panel saw.
        var panelOpens = 0
        var curlVersion = ""
        var loadBefore = ""
        var loadAfter = ""
        /// When the run started, UTC.
        var date = ""
    }

    static let curl = "/usr/bin/curl"

    static func run(intercom: String, work: String, runs: Int = 30) async throws -> Result {
        var result = Result()
        result.runs = runs
        result.loadBefore = BenchMachine.loadAverage()
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        result.date = format.string(from: Date())
        result.curlVersion = (try? TimedRun.run(curl, ["--version"], environment: [:], scratch: work))?
            .stdout.split(separator: "\n").first.map(String.init) ?? "curl"
        let warmups = 3

        // (a) open: one address.
        let one = try Session(intercom: intercom, work: "\(work)/operator-open", addresses: 1)
        defer { one.stop() }
        let openBody = #"{"domophoneId":1,"doorId":0}"#
        let openCurl = one.curlArguments(method: "address/openDoor", body: openBody)
        // Start-up alone: the same binary and environment, a config with nothing to ask.
        let empty = "\(work)/operator-empty.ini"
        try "".write(toFile: empty, atomically: true, encoding: .utf8)
        var emptyEnvironment = one.environment
        emptyEnvironment["INTERCOM_CONFIG"] = empty
        for i in 0..<(warmups + runs) {
            let pair = try interleaved(first: i % 2 == 0, {
                try one.timed(intercom, ["open", "bench:1:0"], expect: "open request accepted")
            }, {
                try one.timed(curl, openCurl, expect: "204")
            })
            let startup = try TimedRun.run(intercom, ["doors"], environment: emptyEnvironment, scratch: one.directory)
            if i >= warmups {
                result.open.add(pair)
                result.startup.add(startup.milliseconds)
                result.startupCPU.add(startup.cpuMilliseconds)
            }
        }
        result.openRequests = one.simulator.requestCount("address/openDoor")
        result.expectedOpenRequests = 2 * (warmups + runs)
        result.panelOpens = one.panel.requestCount("intercom_cgi?action=maindoor")
        one.stop()

        // (b) doors: twenty addresses. The client asks `address/getAddressList` once per operator.
        let twenty = try Session(intercom: intercom, work: "\(work)/operator-doors", addresses: 20)
        defer { twenty.stop() }
        let listCurl = twenty.curlArguments(method: "address/getAddressList", body: "{}")
        for i in 0..<(warmups + runs) {
            let pair = try interleaved(first: i % 2 == 0, {
                try twenty.timed(intercom, ["doors", "--json"], expect: "\"operator\"")
            }, {
                try twenty.timed(curl, listCurl, expect: "\"houseId\":\"20\"")
            })
            if i >= warmups { result.doors.add(pair) }
            result.doorCount = JSONValue.parse(pair.ours.stdout).flatMap { if case .array(let a) = $0 { a.count } else { nil } } ?? 0
        }
        twenty.stop()

        result.loadAfter = BenchMachine.loadAverage()
        return result
    }

    /// Runs both, in the order asked (alternating the order cancels a first-runner's advantage).
    static func interleaved(first oursFirst: Bool, _ ours: () throws -> TimedRun,
                                    _ curl: () throws -> TimedRun) throws -> (ours: TimedRun, curl: TimedRun) {
        if oursFirst {
            let a = try ours()
            return (a, try curl())
        }
        let b = try curl()
        return (try ours(), b)
    }

    /// A simulated operator with `addresses` houses on loopback, and a user logged in to it through
    /// the real binary: a private config file (0600) and a private state directory for the token.
    struct Session {
        let simulator: SimulatedOperator
        /// The Beward panel behind the doors: the server asks it (Basic auth) before its 204.
        let panel: SimulatedPanelHTTPServer
        let directory: String
        let environment: [String: String]
        /// curl's headers, the token among them: read from a file, so the token is not in argv.
        let headerFile: String

        init(intercom: String, work: String, addresses: Int) throws {
            try FileManager.default.createDirectory(atPath: "\(work)/state", withIntermediateDirectories: true)
            directory = work
            panel = SimulatedPanelHTTPServer(options: SimulatedPanelOptions(password: "bench-door", auth: .basic))
            var options = SimulatedOperatorOptions(addresses: addresses)
            do {
                _ = try panel.start()
                options.panel = OperatorPanelTarget(url: panel.baseURL, password: "bench-door")
                simulator = try SimulatedOperator.start(options)
            } catch {
                panel.stop()
                throw BenchError("simulated operator: \(error)")
            }
            let config = "\(work)/config.ini"
            try "[operator bench]\napi = \(simulator.baseURL)\nphone = \(simulator.options.testPhone)\n"
                .write(toFile: config, atomically: true, encoding: .utf8)
            chmod(config, 0o600)
            environment = ["PATH": "/usr/bin:/bin", "HOME": work, "XDG_STATE_HOME": "\(work)/state",
                           "INTERCOM_CONFIG": config, "LANG": "C.UTF-8"]
            let login = try TimedRun.run(intercom, ["login", "bench"], environment: environment,
                                         input: simulator.options.testCode + "\n", scratch: work)
            guard login.status == 0 else { throw BenchError("intercom login bench exited \(login.status): \(login.stdout)") }
            let tokenFile = "\(work)/state/intercom/operators/bench.json"
            guard let data = FileManager.default.contents(atPath: tokenFile),
                  let token = JSONValue.parse(String(decoding: data, as: UTF8.self))?["token"]?.stringValue else {
                throw BenchError("no token in \(tokenFile) after intercom login")
            }
            // The headers OperatorClient sends, the same token.
            headerFile = "\(work)/curl-headers"
            try """
                Content-Type: application/json
                Accept: application/json
                Accept-Language: en
                X-System-Info: Linux,intercom
                X-App-Version: \(IntercomVersion.string)
                Expect:
                Authorization: Bearer \(token)

                """.write(toFile: headerFile, atomically: true, encoding: .utf8)
            chmod(headerFile, 0o600)
        }

        func stop() {
            simulator.stop()
            panel.stop()
        }

        /// curl as a script would run it: no ~/.curlrc, the answer and its status on stdout.
        func curlArguments(method: String, body: String) -> [String] {
            ["-q", "-s", "-X", "POST", "-H", "@\(headerFile)", "--data-binary", body,
             "-w", "\n%{http_code}", "\(simulator.baseURL)/\(method)"]
        }

        func timed(_ path: String, _ arguments: [String], expect: String) throws -> TimedRun {
            let run = try TimedRun.run(path, arguments, environment: environment, scratch: directory)
            guard run.status == 0, run.stdout.contains(expect) else {
                throw BenchError("\((path as NSString).lastPathComponent) \(arguments.first ?? "") exited \(run.status) without \(expect): \(run.stdout.prefix(300))")
            }
            return run
        }
    }
}
