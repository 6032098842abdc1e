//! The CPU an example runs on, for the line it prints before its figures.

/// The CPU's model name and family / model numbers, from /proc/cpuinfo
/// where there is one ("?" for what it does not say).
pub fn describe() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        info.lines()
            .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
            .and_then(|l| l.split_once(':'))
            .map_or("?", |(_, v)| v.trim())
            .to_string()
    };
    format!(
        "{}, family {} model {}",
        field("model name"),
        field("cpu family"),
        field("model")
    )
}
