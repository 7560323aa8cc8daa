import Foundation
import IntercomBase
import IntercomCLI
import IntercomCore
import IntercomTUI

/// `intercom demo`: no config, no hardware. `intercom-sim` runs a simulated Beward panel that rings
/// this client's screen within seconds (and again after every call) and a simulated SmartYard
/// operator whose door opens that panel; the demo logs in to the operator and shows both. The
/// simulators are child processes, so intercom-full does not link libmicrohttpd.
enum DemoCommand {
    static let spec = CommandSpec(
        name: "demo",
        options: TUICommand.options + [.value("--ring-every", "SECONDS", "ring again this long after each call (default 5)")],
        details: """
        The simulated panel serves its camera and doors over HTTP on 127.0.0.1 and calls over SIP with
        audio and video; the simulated operator (logged in with its test phone) offers the panel's door
        as an operator door and serves a camera (intercom watch demo:cam:1, live HLS; a minute of recording).
        Answer with a, open the door with o, hang up with h, quit with q.
        Everything the demo writes (config, token, journal) lives in a private folder removed at the end;
        the demo prints it before the screen opens and shows it in the screen's title.
        """,
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        let pause = Double(invocation.arguments.value("--ring-every") ?? "5") ?? -1
        guard pause >= 0, pause <= 86_400 else {
            return Console.fail(UsageError(message: "--ring-every takes seconds", command: "demo").description,
                                code: ExitCode.usage)
        }
        guard isatty(0) == 1, isatty(1) == 1 else {
            return Console.fail(TUIError.notATerminal.description, code: ExitCode.usage)
        }
        // A private mkdtemp folder: config, token, journal, the phone's plugin folder, the children's logs.
        let directory: PrivateTemporaryDirectory
        do {
            directory = try PrivateTemporaryDirectory.make(prefix: "intercom-demo")
        } catch {
            return Console.fail(error.description, code: error.exitCode)
        }
        defer { directory.remove() }
        let work = directory.path
        // SIGINT, SIGTERM and SIGHUP close the screen as q does, so the children are stopped before the
        // demo ends (they are in their own process group: a closed terminal's SIGHUP reaches only the demo).
        let signals = SignalWatcher([SIGTERM, SIGINT, SIGHUP])
        guard let program = SiblingProgram.path(.simulator) else {
            return Console.fail("cannot find this program's own path (/proc/self/exe); is /proc mounted?",
                                code: ExitCode.failure)
        }
        // The token store and anything else under XDG_STATE_HOME: the demo's, never the user's.
        var environment = invocation.environment
        environment["XDG_STATE_HOME"] = "\(work)/state"
        let port: UInt16
        let simulators: DemoSimulators
        do {
            port = try LoopbackPort.freeUDP()
            simulators = try await DemoSimulators.start(program: program, directory: work, clientPort: port,
                                                        ringEvery: pause, environment: invocation.environment)
        } catch {
            return Console.fail(error.description, code: ExitCode.unavailable)
        }
        let code = await run(simulators, port: port, work: work, environment: environment, invocation: invocation,
                             signals: signals)
        await simulators.stop()
        return code
    }

    /// Logs in, writes and loads the demo config, and runs the screen until the user quits.
    private static func run(_ simulators: DemoSimulators, port: UInt16, work: String, environment: [String: String],
                            invocation: Invocation, signals: SignalWatcher) async -> Int32 {
        let configPath = "\(work)/config.ini"
        let config: IntercomConfig
        do {
            try DurableFile.write(Data(simulators.config(clientPort: port, directory: work).utf8), to: configPath)
            config = try ConfigLoader.load(explicit: configPath, environment: environment).config
        } catch {
            return Console.fail("cannot write the demo config: \(error)", code: ExitCode.failure)
        }
        do {
            for op in config.operators {
                try await DemoLogin.logIn(op, code: simulators.testCode, environment: environment)
            }
        } catch {
            return Console.fail(error.description, code: ExitCode.unavailable)
        }
        // The folder docs/SIMULATORS.md's `--config DEMO/config.ini` means: said before the screen opens (it
        // stays in the terminal's scrollback) and in the screen's title while the demo runs.
        Console.out("intercom demo: its folder is \(work) (removed when the demo ends); from another terminal:\n"
                    + "  XDG_STATE_HOME=\(work)/state intercom doors --config \(work)/config.ini")
        var demo = invocation
        demo.environment = environment
        var settings = TUICommand.phoneSettings(config, demo)
        settings.dataDirectory = "\(work)/client"
        let intercom = TUICommand.engine(config, settings, demo, logger: TUICommand.quietLogger(demo))
        // The first ring's wait is the demo's task: ended (and awaited) with the screen.
        let firstRing = TaskOwner("demo")
        let code = await TUICommand.runScreen(intercom, invocation: demo, kiosk: false, label: "demo \(work)",
                                              stopOn: signals) {
            // The first ring 1.5 s after the client listens; later ones follow --ring-every.
            firstRing.start {
                do { try await Task.sleep(for: .milliseconds(1500)) } catch { return }
                simulators.ring()
            }
        }
        await firstRing.end()
        return code
    }
}
