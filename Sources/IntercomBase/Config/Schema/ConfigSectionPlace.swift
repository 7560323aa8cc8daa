/// Where a section's value lives in `IntercomConfig`.
enum ConfigSectionPlace<Value> {
    case single(WritableKeyPath<IntercomConfig, Value>)
    /// A list in file order; `name` is the section's name in each value.
    case named(WritableKeyPath<IntercomConfig, [Value]>, name: KeyPath<Value, String>)
}
