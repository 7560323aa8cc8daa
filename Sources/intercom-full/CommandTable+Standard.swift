import IntercomCLI
import IntercomVideo

extension CommandTable {
    /// The commands intercom-full runs (CommandIndex lists them all; the simulators are intercom-sim's).
    static let standard = CommandTable(commands: [
        TUICommand.spec,
        DemoCommand.spec,
        CallCommand.spec,
        DaemonCommand.spec,
        DoctorCommand.spec,
        CtlCommand.spec,
        LogCommand.spec(player: ClipPlayback.play),
        SnapshotCommand.spec,
        WatchCommand.spec,
        OpenCommand.spec,
        DoorsCommand.spec,
        CamerasCommand.spec,
        LoginCommand.spec,
        LogoutCommand.spec,
        SettingsCommand.spec,
        ShareCommand.spec,
        InboxCommand.spec,
        FacesCommand.spec,
        PlatesCommand.spec,
        ExportCommand.spec,
        ConfigCommand.spec,
        SiteCommand.spec,
        CompletionCommand.spec,
        SetupCommand.spec(streamCheck: { url, user, password in
            await StreamProbe.check(VideoSource(url: url, user: user, password: password, openTimeout: .seconds(5)))
                .map { "\($0)" }
        }),
    ])
}
