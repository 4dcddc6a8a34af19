//! The title a name implies, for a tool or prompt without a `title`. The name rule itself is
//! `mcp_toolkit_core::name`, shared with the runtime.

/// A human title from a tool name: `text_analyzer` → `Text Analyzer`,
/// `getWeather` → `Get Weather`, `admin.tools.list` → `Admin Tools List`.
pub(crate) fn title_from_name(name: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut previous: Option<char> = None;
    for c in name.chars() {
        if matches!(c, '_' | '-' | '.' | ' ') {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            previous = None;
            continue;
        }
        let camel_boundary =
            previous.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit()) && c.is_ascii_uppercase();
        if camel_boundary && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        current.push(c);
        previous = Some(c);
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
        .iter()
        .map(|w| {
            let mut chars = w.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles() {
        assert_eq!(title_from_name("text_analyzer"), "Text Analyzer");
        assert_eq!(title_from_name("calculator"), "Calculator");
        assert_eq!(title_from_name("getWeather"), "Get Weather");
        assert_eq!(title_from_name("admin.tools.list"), "Admin Tools List");
        assert_eq!(title_from_name("DATA_EXPORT_v2"), "DATA EXPORT V2");
        assert_eq!(title_from_name("get-user-by-id"), "Get User By Id");
    }
}
