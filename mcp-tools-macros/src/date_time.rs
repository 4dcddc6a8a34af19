//! RFC 3339 date-times (section 5.6), checked at compile time: a resource's
//! `annotations(last_modified = "2025-01-12T15:00:58Z")`. Only checked, never converted:
//! the text goes out as written.
//!
//! ```text
//! date-time = full-date "T" full-time          ; "T" and "Z" in either case
//! full-date = YYYY "-" MM "-" DD               ; a day that month of that year has
//! full-time = hh ":" mm ":" ss ["." 1*DIGIT] ("Z" / ("+" / "-") hh ":" mm)
//! ```

/// Why `text` is not an RFC 3339 date-time, if it is not one.
pub(crate) fn check(text: &str) -> Result<(), String> {
    let mut at = Reader {
        rest: text.as_bytes(),
    };
    let year = at.number(4, "the year")?;
    at.expect(b"-", "`-` after the year")?;
    let month = at.number(2, "the month")?;
    at.expect(b"-", "`-` after the month")?;
    let day = at.number(2, "the day")?;
    if !(1..=12).contains(&month) {
        return Err(format!("the month `{month:02}` is not from 01 to 12"));
    }
    let last = days_in(year, month);
    if !(1..=last).contains(&day) {
        return Err(format!(
            "the day `{day:02}` is not from 01 to {last} (month {month:02} of {year:04})"
        ));
    }
    at.expect(b"Tt", "`T` between the date and the time")?;
    let hour = at.number(2, "the hour")?;
    at.expect(b":", "`:` after the hour")?;
    let minute = at.number(2, "the minute")?;
    at.expect(b":", "`:` after the minute")?;
    let second = at.number(2, "the second")?;
    if hour > 23 {
        return Err(format!("the hour `{hour:02}` is not from 00 to 23"));
    }
    if minute > 59 {
        return Err(format!("the minute `{minute:02}` is not from 00 to 59"));
    }
    // 60 is a leap second.
    if second > 60 {
        return Err(format!("the second `{second:02}` is not from 00 to 60"));
    }
    if at.rest.first() == Some(&b'.') {
        at.rest = &at.rest[1..];
        let digits = at.rest.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            return Err("expected digits after the `.` of the seconds".to_owned());
        }
        at.rest = &at.rest[digits..];
    }
    match at.expect(b"Zz+-", "an offset after the time: `Z` or one such as `+02:00`")? {
        b'Z' | b'z' => {}
        _ => {
            let hour = at.number(2, "the offset's hours")?;
            at.expect(b":", "`:` in the offset")?;
            let minute = at.number(2, "the offset's minutes")?;
            if hour > 23 || minute > 59 {
                return Err(format!(
                    "the offset `{hour:02}:{minute:02}` is not from 00:00 to 23:59"
                ));
            }
        }
    }
    if !at.rest.is_empty() {
        return Err(format!(
            "unexpected `{}` after the offset",
            String::from_utf8_lossy(at.rest)
        ));
    }
    Ok(())
}

/// The days of `month` (1 to 12) in `year` of the Gregorian calendar.
fn days_in(year: u32, month: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// What is left of the text.
struct Reader<'a> {
    rest: &'a [u8],
}

impl Reader<'_> {
    /// Exactly `len` ASCII digits.
    fn number(&mut self, len: usize, what: &str) -> Result<u32, String> {
        let digits = self
            .rest
            .iter()
            .take(len)
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits < len {
            return Err(format!("expected {len} digits for {what}"));
        }
        let (number, rest) = self.rest.split_at(len);
        self.rest = rest;
        Ok(number.iter().fold(0, |n, digit| n * 10 + u32::from(digit - b'0')))
    }

    /// One of the bytes `accepted`, which it returns.
    fn expect(&mut self, accepted: &[u8], what: &str) -> Result<u8, String> {
        match self.rest.split_first() {
            Some((&byte, rest)) if accepted.contains(&byte) => {
                self.rest = rest;
                Ok(byte)
            }
            _ => Err(format!("expected {what}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn accepts_date_times_of_rfc_3339() {
        for text in [
            "2025-01-12T15:00:58Z",
            "2025-01-12t15:00:58z",
            "1985-04-12T23:20:50.52Z",
            "1996-12-19T16:39:57-08:00",
            "1990-12-31T23:59:60Z",
            "2024-02-29T00:00:00+00:00",
            "2000-02-29T12:00:00.000000001+14:00",
        ] {
            assert_eq!(check(text), Ok(()), "{text}");
        }
    }

    #[test]
    fn says_what_is_wrong() {
        for (text, why) in [
            ("", "expected 4 digits for the year"),
            ("2025", "expected `-` after the year"),
            ("2025-1-12T15:00:58Z", "expected 2 digits for the month"),
            ("2025-13-01T00:00:00Z", "the month `13` is not from 01 to 12"),
            (
                "2025-02-29T00:00:00Z",
                "the day `29` is not from 01 to 28 (month 02 of 2025)",
            ),
            (
                "1900-02-29T00:00:00Z",
                "the day `29` is not from 01 to 28 (month 02 of 1900)",
            ),
            (
                "2025-04-00T00:00:00Z",
                "the day `00` is not from 01 to 30 (month 04 of 2025)",
            ),
            ("2025-01-12", "expected `T` between the date and the time"),
            (
                "2025-01-12 15:00:58Z",
                "expected `T` between the date and the time",
            ),
            ("2025-01-12T24:00:00Z", "the hour `24` is not from 00 to 23"),
            ("2025-01-12T15:60:00Z", "the minute `60` is not from 00 to 59"),
            ("2025-01-12T15:00:61Z", "the second `61` is not from 00 to 60"),
            ("2025-01-12T15:00Z", "expected `:` after the minute"),
            (
                "2025-01-12T15:00:58.Z",
                "expected digits after the `.` of the seconds",
            ),
            (
                "2025-01-12T15:00:58",
                "expected an offset after the time: `Z` or one such as `+02:00`",
            ),
            ("2025-01-12T15:00:58+0200", "expected `:` in the offset"),
            (
                "2025-01-12T15:00:58+24:00",
                "the offset `24:00` is not from 00:00 to 23:59",
            ),
            ("2025-01-12T15:00:58Z ", "unexpected ` ` after the offset"),
            ("２025-01-12T15:00:58Z", "expected 4 digits for the year"),
        ] {
            assert_eq!(check(text), Err(why.to_owned()), "{text}");
        }
    }
}
