import Foundation
import IntercomBase
import IntercomOperator
import IntercomSimulator
import IntercomTestSupport
import Testing

/// Faces as SmartYard-Server's `frs/*` keeps them, against the simulated operator over real HTTP:
/// none at first (204), the face of a recognition entry registered (`frs/like`) and listed with its
/// picture, an entry without a picture refused by the server (403), a picture without a face
/// answered by the face server (406, its message), and the face taken off by id (`frs/disLike`);
/// the `intercom faces` command says each outcome as what the server did, lists and removes.
@Suite struct OperatorFacesSimulatorTests {
    @Test func aRecognisedFaceIsRegisteredListedAndRemoved() async throws {
        try await withSimulatedLogin { simulator, client in
            let flat = try #require(try await client.flats().first)
            #expect(try await client.faces(flatId: flat.flatId).isEmpty)

            simulator.recordRecognition(face: 17)
            simulator.recordCall(answered: false)
            simulator.recordCall(answered: true, picture: false)
            let day = try #require(try await client.plogDays(flatId: flat.flatId).last?.day)
            let entries = try await client.plog(flatId: flat.flatId, day: day)
            let faced = try #require(entries.first { $0.event == .openedByFace }?.uuid, "\(entries)")
            let call = try #require(entries.first { $0.event == .callMissed }?.uuid, "\(entries)")
            let bare = try #require(entries.first { $0.event == .callAnswered }?.uuid, "\(entries)")
            // The server refuses only the entry without a picture; the face server finds no face in the call's.
            let refused = await #expect(throws: OperatorError.self) { try await client.likeFace(event: bare) }
            // mobile.404 in the client's language (like.php says it for every refusal).
            #expect(refused?.kind == .forbidden && ["Not found", "Не найдено"].contains(refused?.serverText ?? ""), "\(String(describing: refused))")
            let noFace = await #expect(throws: OperatorError.self) { try await client.likeFace(event: call) }
            #expect(noFace?.kind == .rejected(status: 406) && noFace?.serverText?.contains("No face found") == true,
                    "\(String(describing: noFace))")
            #expect(try await client.likeFace(event: faced))
            let faces = try await client.faces(flatId: flat.flatId)
            #expect(faces.map(\.id) == ["17"])
            #expect(faces.first?.image?.hasSuffix("/address/plogCamshot/\(faced)") == true)

            let directory = try TestDirectory(prefix: "intercom-faces")
            let config = try IntercomBinary.writeConfig("[operator home]\napi = \(simulator.baseURL)\nphone = 79123456781\n", in: directory)
            func intercom(_ arguments: [String], stdin: String? = nil) async throws -> (status: Int32, stdout: String, stderr: String) {
                try await IntercomBinary.run(arguments + ["--config", config.path], in: directory, stdin: stdin, timeout: .seconds(30))
            }
            #expect(try await intercom(["login", "--sms"], stdin: "1001").status == 0)
            let bareLike = try await intercom(["faces", "--like", bare])
            #expect(bareLike.status == 77 && bareLike.stderr.contains("refused entry \(bare): it has no picture")
                    && (bareLike.stderr.contains("Not found") || bareLike.stderr.contains("Не найдено")), "\(bareLike)")
            let callLike = try await intercom(["faces", "--like", call])
            #expect(callLike.status == 65 && callLike.stderr.contains("face server found no face to register")
                    && callLike.stderr.contains("No face found in the picture"), "\(callLike)")
            let faceLike = try await intercom(["faces", "--like", faced])
            #expect(faceLike.status == 0 && faceLike.stdout.contains("face server registered the face in entry \(faced)"), "\(faceLike)")
            let listed = try await intercom(["faces"])
            #expect(listed.status == 0 && listed.stdout.contains("face 17"), "\(listed)")
            let removed = try await intercom(["faces", "--remove", "17"])
            #expect(removed.status == 0 && removed.stdout.contains("face 17 removed"), "\(removed)")
            #expect(try await client.faces(flatId: flat.flatId).isEmpty)
            #expect(try await intercom(["faces", "--remove", "x"]).status == 64)
        }
    }
}
