//! RFC 3339 dates and date-times (section 5.6), checked, never converted: the text goes out
//! as written. The macros check a resource's `annotations(last_modified = "...")` at compile
//! time; the runtime checks a form's `date` and `date-time` fields as the user answers them.
//!
//! ```text
//! date-time = full-date "T" full-time          ; "T" and "Z" in either case
//! full-date = YYYY "-" MM "-" DD               ; a day that month of that year has
//! full-time = hh ":" mm ":" ss ["." 1*DIGIT] ("Z" / ("+" / "-") hh ":" mm)
//! ```

use std::fmt;

/// Why a text is not an RFC 3339 date or date-time: what was expected where, or which
/// number is out of range.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DateTimeError {
    /// Fewer than `len` ASCII digits where a number of that many digits belongs.
    Digits {
        /// How many digits the number has.
        len: usize,
        /// The number: `"the year"`, `"the offset's hours"`, ...
        what: &'static str,
    },
    /// Something else where a separator or the offset belongs.
    Expected(&'static str),
    /// The month is not from 01 to 12.
    Month(u32),
    /// The month of that year has no such day.
    Day {
        /// The year.
        year: u32,
        /// The month, from 1 to 12.
        month: u32,
        /// The day.
        day: u32,
    },
    /// The hour is not from 00 to 23.
    Hour(u32),
    /// The minute is not from 00 to 59.
    Minute(u32),
    /// The second is not from 00 to 60 (60 is a leap second).
    Second(u32),
    /// A `.` after the seconds with no digit after it.
    Fraction,
    /// The offset from UTC is not from 00:00 to 23:59.
    Offset {
        /// Its hours.
        hours: u32,
        /// Its minutes.
        minutes: u32,
    },
    /// Text after the end: the offset of a date-time, the day of a date.
    Trailing(String),
}

/// Checks an RFC 3339 `date-time`: a date, `T`, a time of day with an optional fraction of a
/// second, and `Z` or an offset from UTC (`+01:00`).
pub fn check(text: &str) -> Result<(), DateTimeError> {
    let mut at = Reader {
        rest: text.as_bytes(),
    };
    at.date()?;
    at.expect(b"Tt", "`T` between the date and the time")?;
    let hour = at.number(2, "the hour")?;
    at.expect(b":", "`:` after the hour")?;
    let minute = at.number(2, "the minute")?;
    at.expect(b":", "`:` after the minute")?;
    let second = at.number(2, "the second")?;
    if hour > 23 {
        return Err(DateTimeError::Hour(hour));
    }
    if minute > 59 {
        return Err(DateTimeError::Minute(minute));
    }
    // 60 is a leap second.
    if second > 60 {
        return Err(DateTimeError::Second(second));
    }
    if at.rest.first() == Some(&b'.') {
        at.rest = &at.rest[1..];
        let digits = at.rest.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            return Err(DateTimeError::Fraction);
        }
        at.rest = &at.rest[digits..];
    }
    match at.expect(b"Zz+-", "an offset after the time: `Z` or one such as `+02:00`")? {
        b'Z' | b'z' => {}
        _ => {
            let hours = at.number(2, "the offset's hours")?;
            at.expect(b":", "`:` in the offset")?;
            let minutes = at.number(2, "the offset's minutes")?;
            if hours > 23 || minutes > 59 {
                return Err(DateTimeError::Offset { hours, minutes });
            }
        }
    }
    at.end()
}

/// Checks an RFC 3339 `full-date`: `YYYY-MM-DD`, a day that exists.
pub fn check_date(text: &str) -> Result<(), DateTimeError> {
    let mut at = Reader {
        rest: text.as_bytes(),
    };
    at.date()?;
    at.end()
}

impl fmt::Display for DateTimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DateTimeError::Digits { len, what } => write!(f, "expected {len} digits for {what}"),
            DateTimeError::Expected(what) => write!(f, "expected {what}"),
            DateTimeError::Month(month) => write!(f, "the month `{month:02}` is not from 01 to 12"),
            DateTimeError::Day { year, month, day } => write!(
                f,
                "the day `{day:02}` is not from 01 to {} (month {month:02} of {year:04})",
                days_in(*year, *month)
            ),
            DateTimeError::Hour(hour) => write!(f, "the hour `{hour:02}` is not from 00 to 23"),
            DateTimeError::Minute(minute) => {
                write!(f, "the minute `{minute:02}` is not from 00 to 59")
            }
            DateTimeError::Second(second) => {
                write!(f, "the second `{second:02}` is not from 00 to 60")
            }
            DateTimeError::Fraction => f.write_str("expected digits after the `.` of the seconds"),
            DateTimeError::Offset { hours, minutes } => write!(
                f,
                "the offset `{hours:02}:{minutes:02}` is not from 00:00 to 23:59"
            ),
            DateTimeError::Trailing(rest) => write!(f, "unexpected `{rest}` at the end"),
        }
    }
}

impl std::error::Error for DateTimeError {}

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
    /// A `full-date`, checked to exist.
    fn date(&mut self) -> Result<(), DateTimeError> {
        let year = self.number(4, "the year")?;
        self.expect(b"-", "`-` after the year")?;
        let month = self.number(2, "the month")?;
        self.expect(b"-", "`-` after the month")?;
        let day = self.number(2, "the day")?;
        if !(1..=12).contains(&month) {
            return Err(DateTimeError::Month(month));
        }
        if !(1..=days_in(year, month)).contains(&day) {
            return Err(DateTimeError::Day { year, month, day });
        }
        Ok(())
    }

    /// Exactly `len` ASCII digits.
    fn number(&mut self, len: usize, what: &'static str) -> Result<u32, DateTimeError> {
        let digits = self
            .rest
            .iter()
            .take(len)
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits < len {
            return Err(DateTimeError::Digits { len, what });
        }
        let (number, rest) = self.rest.split_at(len);
        self.rest = rest;
        Ok(number.iter().fold(0, |n, digit| n * 10 + u32::from(digit - b'0')))
    }

    /// One of the bytes `accepted`, which it returns.
    fn expect(&mut self, accepted: &[u8], what: &'static str) -> Result<u8, DateTimeError> {
        match self.rest.split_first() {
            Some((&byte, rest)) if accepted.contains(&byte) => {
                self.rest = rest;
                Ok(byte)
            }
            _ => Err(DateTimeError::Expected(what)),
        }
    }

    /// Nothing left.
    fn end(&self) -> Result<(), DateTimeError> {
        if self.rest.is_empty() {
            Ok(())
        } else {
            Err(DateTimeError::Trailing(
                String::from_utf8_lossy(self.rest).into_owned(),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{check, check_date};

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
            "2025-01-31T09:30:00.123456-05:30",
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
            ("2025-01-12T15:3é:00Z", "expected 2 digits for the minute"),
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
                "2025-01-12T15:00:58+1:00",
                "expected 2 digits for the offset's hours",
            ),
            (
                "2025-01-12T15:00:58+24:00",
                "the offset `24:00` is not from 00:00 to 23:59",
            ),
            ("2025-01-12T15:00:58Z ", "unexpected ` ` at the end"),
            ("２025-01-12T15:00:58Z", "expected 4 digits for the year"),
        ] {
            assert_eq!(
                check(text).map_err(|error| error.to_string()),
                Err(why.to_owned()),
                "{text}"
            );
        }
    }

    #[test]
    fn dates_are_days_that_exist() {
        for date in ["2000-02-29", "2024-02-29", "1999-12-31", "0001-01-01"] {
            assert_eq!(check_date(date), Ok(()), "{date}");
        }
        for (date, why) in [
            (
                "1900-02-29",
                "the day `29` is not from 01 to 28 (month 02 of 1900)",
            ),
            (
                "2023-02-29",
                "the day `29` is not from 01 to 28 (month 02 of 2023)",
            ),
            (
                "2024-04-31",
                "the day `31` is not from 01 to 30 (month 04 of 2024)",
            ),
            ("2024-13-01", "the month `13` is not from 01 to 12"),
            ("2024-00-10", "the month `00` is not from 01 to 12"),
            ("2024-1-01", "expected 2 digits for the month"),
            (
                "2024-01-001",
                "the day `00` is not from 01 to 31 (month 01 of 2024)",
            ),
            ("2024-01-011", "unexpected `1` at the end"),
            ("2024/01/01", "expected `-` after the year"),
            ("２０２４-01-01", "expected 4 digits for the year"),
            ("2024-01-0é", "expected 2 digits for the day"),
            ("2025-01-31T09:30:00Z", "unexpected `T09:30:00Z` at the end"),
        ] {
            assert_eq!(
                check_date(date).map_err(|error| error.to_string()),
                Err(why.to_owned()),
                "{date}"
            );
        }
    }
}
