import IntercomBase
import IntercomOperator

/// `intercom cameras [--json]`: every picture source, the panels' and the operators' CCTV cameras,
/// each with the id `watch` and `snapshot` take.
public enum CamerasCommand {
    public static let spec = CommandSpec(
        name: "cameras",
        options: [.flag("--json", "one JSON array"),
                  .flag("--ranges", "what each operator camera's recording keeps (cctv/ranges): from-to pieces, local time")],
        details: """
            Ids: a panel's camera is the panel's name; an operator's camera is OPERATOR:cam:ID from the
            operator's own numbering, so it stays the same across runs and logins. An operator panel
            that serves several entrances lists each entrance's camera too, as OPERATOR:entrance:ID
            (an operator door, OPERATOR:PANEL:DOOR, shows the first, as its calls do). Stream tokens
            are never printed. snapshot takes every kind (an operator camera's picture now, or from
            its recording with --at TIME). --ranges asks the operator what each of its cameras'
            recordings keeps (the server asks the camera's video server, whatever its kind): a
            RECORDED column of from-to pieces, or "ranges" in --json (unix seconds); export and
            watch --at into a gap say where the recording resumes.
            """,
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        await CatalogEntry.list(invocation, noun: "cameras", panel: { panel in
            [CatalogEntry(id: panel.name, name: panel.name,
                          fields: [("source", .string("panel")), ("panel", .string(panel.name))],
                          whereText: "panel \(panel.name)")]
        }, operatorItems: { op, client throws(OperatorError) in
            let cameras = try await operatorCameras(op.name, client)
            return invocation.arguments.has("--ranges") ? await withRanges(cameras, client) : cameras
        })
    }

    /// The cameras of each address (`cctv/all` per house, so each carries its address), then any
    /// the operator lists for no address of ours; each camera once.
    static func operatorCameras(_ name: String, _ client: OperatorClient) async throws(OperatorError) -> [CatalogEntry] {
        var seen = Set<String>()
        var entries: [CatalogEntry] = []
        func add(_ cameras: [OperatorCamera], address: String?) {
            for camera in cameras {
                let id = OperatorItemID.camera(operator: name, cameraId: camera.id)
                guard seen.insert(id).inserted else { continue }
                entries.append(CatalogEntry(
                    id: id, name: camera.name,
                    fields: [("source", .string("operator")), ("operator", .string(name)), ("address", .optional(address)),
                             ("url", .optional(camera.url)), ("server_type", .optional(camera.serverType)),
                             ("has_sound", .bool(camera.hasSound))],
                    whereText: address.map { "\(name): \($0)" } ?? name))
            }
        }
        let addresses = try await client.addresses()
        for address in addresses {
            add(try await client.cameras(houseId: address.houseId), address: address.address)
        }
        add(try await client.cameras(), address: nil)
        // The camera map is best effort: a server without it still lists its cameras.
        if let map = try? await client.panelCameras() {
            entries += entranceCameras(name, map)
        }
        return entries
    }

    /// Each `OPERATOR:cam:ID` camera with what its recording keeps; a camera the operator answers
    /// nothing for says why in its column (the others are still listed).
    static func withRanges(_ entries: [CatalogEntry], _ client: OperatorClient) async -> [CatalogEntry] {
        var result: [CatalogEntry] = []
        for var entry in entries {
            if let id = OperatorItemID.parseCamera(entry.id)?.cameraId {
                do {
                    let ranges = try await client.archiveRanges(cameraId: id)
                    entry.recorded = ranges.pieces.isEmpty ? "nothing kept" : ranges.pieces.map {
                        "\(LocalTime($0.from).dateAndClock)-\(LocalTime($0.to).clock)"
                    }.joined(separator: ", ")
                    entry.fields.append(("ranges", .array(ranges.pieces.map {
                        .object([("from", .integer(Int($0.from.timeIntervalSince1970))), ("to", .integer(Int($0.to.timeIntervalSince1970)))])
                    })))
                } catch {
                    entry.recorded = "unknown (\(error.kind == .notFound ? "the operator has no ranges for it" : "\(error)"))"
                    entry.fields.append(("ranges", .null))
                }
            }
            result.append(entry)
        }
        return result
    }

    /// Each entrance camera of a panel the map lists more than once (a panel shared by entrances),
    /// so one can be picked; a panel with one entrance is its door's camera already.
    static func entranceCameras(_ name: String, _ map: OperatorCameraMap) -> [CatalogEntry] {
        map.entries.compactMap { entry -> CatalogEntry? in
            guard let entrance = entry.entranceId, map.cameras(domophoneId: entry.domophoneId).count > 1 else { return nil }
            let camera = entry.camera
            return CatalogEntry(
                id: OperatorItemID.entrance(operator: name, entranceId: entrance),
                name: "entrance \(entrance) of panel \(entry.domophoneId)",
                fields: [("source", .string("operator")), ("operator", .string(name)), ("entrance", .string(entrance)),
                         ("panel", .string(entry.domophoneId)), ("url", .optional(camera.url)),
                         ("server_type", .optional(camera.serverType)), ("has_sound", .bool(camera.hasSound))],
                whereText: "\(name): panel \(entry.domophoneId)")
        }
    }
}
