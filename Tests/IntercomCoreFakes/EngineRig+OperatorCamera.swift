import IntercomBase
import IntercomOperator

extension EngineRig {
    /// An engine with one operator, `home`, whose camera 7 ("Entrance", `home:cam:7`) plays: the rig of
    /// the tests about who shows an operator camera and who may want its pictures.
    package static func runWithOperatorCamera(_ body: (EngineRig) async throws -> Void) async throws {
        let home = OperatorConfig(name: "home", api: "https://operator.invalid/mobile", phone: "79123456781")
        let api = FakeOperator()
        api.list("home", addresses: [], cameras: ["1": OperatorCamera(id: "7", name: "Entrance", url: "https://cam.invalid/cam7", token: "t0k")])
        try await run(operators: [home], operatorAPI: api, body)
    }
}
