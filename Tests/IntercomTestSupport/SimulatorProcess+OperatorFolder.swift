import Foundation

extension SimulatorProcess {
    /// `simulate-operator ARGS` in a new `prefix` folder with `config` written there (each `API` in it
    /// replaced by the simulator's URL), and `body` with the simulator, the folder and the config file;
    /// the simulator is stopped (awaited) whatever happens.
    package static func withOperator(_ arguments: [String], prefix: String,
                                     config: String = "[operator home]\napi = API\nphone = 79123456781\n",
                                     _ body: (SimulatorProcess, TestDirectory, URL) async throws -> Void) async throws {
        let directory = try TestDirectory(prefix: prefix)
        let simulator = try await SimulatorProcess.operator(arguments, in: directory)
        try await withCleanup({ await simulator.stop() }) {
            let url = try simulator.operatorURL()
            let file = try IntercomBinary.writeConfig(config.replacingOccurrences(of: "API", with: url), in: directory)
            try await body(simulator, directory, file)
        }
    }
}
