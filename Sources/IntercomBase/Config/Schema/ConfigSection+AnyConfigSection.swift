/// A typed section in the erased list: its rows without their closures.
extension ConfigSection: AnyConfigSection {
    var rows: [ConfigKeyRow] {
        keys.map {
            ConfigKeyRow(name: $0.name, type: $0.type, defaultValue: $0.defaultValue, reload: $0.reload,
                         about: $0.about, example: $0.example, required: $0.required, appliesLive: $0.apply != nil)
        }
    }
}
