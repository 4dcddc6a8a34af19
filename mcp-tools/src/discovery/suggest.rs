//! The names closest to one that names no tool, for the error of a `call_tool` that
//! misspells one: by edit distance, so `create_refnd` suggests `create_refund`.

/// Up to `most` of `names` within a few edits of `wanted` (a third of its length, at least
/// two), closest first; ties keep the catalogue's order.
pub(crate) fn close_names<'a>(
    wanted: &str,
    names: impl Iterator<Item = &'a str>,
    most: usize,
) -> Vec<&'a str> {
    let wanted: Vec<char> = wanted.chars().flat_map(char::to_lowercase).collect();
    let bound = (wanted.len() / 3).max(2);
    let mut row = Vec::new();
    let mut close: Vec<(usize, usize, &str)> = names
        .enumerate()
        .filter_map(|(order, name)| {
            let distance = distance(&wanted, name, bound, &mut row)?;
            Some((distance, order, name))
        })
        .collect();
    close.sort_unstable();
    close.into_iter().take(most).map(|(_, _, name)| name).collect()
}

/// The Levenshtein distance of `a` and `b` (case ignored), if it is at most `bound`.
fn distance(a: &[char], b: &str, bound: usize, row: &mut Vec<usize>) -> Option<usize> {
    let b: Vec<char> = b.chars().flat_map(char::to_lowercase).collect();
    if a.len().abs_diff(b.len()) > bound {
        return None;
    }
    row.clear();
    row.extend(0..=b.len());
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        let mut least = row[0];
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if ca == cb {
                diagonal
            } else {
                1 + diagonal.min(above).min(row[j])
            };
            diagonal = above;
            least = least.min(row[j + 1]);
        }
        if least > bound {
            return None;
        }
    }
    Some(row[b.len()]).filter(|&d| d <= bound)
}

#[cfg(test)]
mod tests {
    use super::close_names;

    const NAMES: [&str; 5] = [
        "create_refund",
        "list_refunds",
        "create_charge",
        "retrieve_refund",
        "cancel",
    ];

    #[test]
    fn a_misspelt_name_suggests_the_closest_first() {
        assert_eq!(
            close_names("create_refnd", NAMES.into_iter(), 3),
            ["create_refund"]
        );
        assert_eq!(
            close_names("Create_Refunds", NAMES.into_iter(), 3),
            ["create_refund"]
        );
        assert_eq!(close_names("list_refund", NAMES.into_iter(), 3), ["list_refunds"]);
    }

    #[test]
    fn a_name_far_from_all_suggests_none() {
        assert!(close_names("send_invoice", NAMES.into_iter(), 3).is_empty());
        assert!(close_names("", NAMES.into_iter(), 3).is_empty());
    }

    #[test]
    fn at_most_the_number_asked_for() {
        let many = ["ab1", "ab2", "ab3", "ab4"];
        assert_eq!(close_names("ab", many.into_iter(), 3), ["ab1", "ab2", "ab3"]);
    }
}
