//! CLICS times (Contest API 2023-06, "Data types"): `RELTIME` (a signed duration,
//! `(-)?(h)*h:mm:ss(.uuu)?`), `TIME` (an ISO 8601 instant with its UTC offset), and the
//! two number forms the 2023-06 objects use for durations: whole minutes (the contest's
//! `penalty_time`, the scoreboard's `total_time` and `time`) and seconds in whole
//! milliseconds (`time_limit`, `run_time`, `max_run_time`).
//!
//! The parsers are the only ones in the crate. They accept what real feeds write beside
//! the canonical form: hours with a leading zero (`"01:00:00"`, 2020-03 exports), one to
//! three decimals, and offsets `Z`, `+01:00`, `+0100` and `-05`. The formatters write
//! the canonical form only (`h:mm:ss.uuu`; `YYYY-MM-DDThh:mm:ss.uuu` with `Z` or `±hh:mm`).

use std::fmt;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A CLICS `RELTIME`: a signed duration in whole milliseconds (2023-06, "RELTIME").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RelTime(i64);

impl RelTime {
    /// The zero duration.
    pub const ZERO: RelTime = RelTime(0);

    /// A duration of `ms` milliseconds.
    pub const fn from_millis(ms: i64) -> RelTime {
        RelTime(ms)
    }

    /// A duration of whole `minutes`.
    pub const fn from_minutes(minutes: i64) -> RelTime {
        RelTime(minutes * 60_000)
    }

    /// The duration in milliseconds.
    pub const fn millis(self) -> i64 {
        self.0
    }

    /// Whole minutes, rounded down (contest time of a submission, CCS requirements);
    /// a negative time gives a negative minute.
    pub const fn floor_minutes(self) -> i64 {
        self.0.div_euclid(60_000)
    }

    /// Parses `(-)?h+:mm:ss(.d{1,3})?`; `None` when `text` is not a RELTIME.
    pub fn parse(text: &str) -> Option<RelTime> {
        let (sign, rest) = match text.strip_prefix('-') {
            Some(rest) => (-1, rest),
            None => (1, text),
        };
        let (clock, fraction) = match rest.split_once('.') {
            Some((clock, fraction)) => (clock, Some(fraction)),
            None => (rest, None),
        };
        let mut parts = clock.split(':');
        let (Some(h), Some(m), Some(s), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return None;
        };
        let hours = digits(h, 1..=9)?;
        let minutes = digits(m, 2..=2).filter(|&m| m < 60)?;
        let seconds = digits(s, 2..=2).filter(|&s| s < 60)?;
        let ms = match fraction {
            Some(f) => millis_of_fraction(f)?,
            None => 0,
        };
        Some(RelTime(
            sign * (((hours * 60 + minutes) * 60 + seconds) * 1000 + ms),
        ))
    }
}

impl fmt::Display for RelTime {
    /// `h:mm:ss.uuu`, with `-` before a negative duration.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let ms = self.0.unsigned_abs();
        let (h, m, s, u) = clock(ms);
        write!(f, "{sign}{h}:{m:02}:{s:02}.{u:03}")
    }
}

impl Serialize for RelTime {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for RelTime {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        RelTime::parse(&text)
            .ok_or_else(|| D::Error::custom(format!("`{text}` is not a RELTIME (h:mm:ss.uuu)")))
    }
}

/// A CLICS `TIME`: an instant in whole milliseconds since the Unix epoch, with the UTC
/// offset it was written in (2023-06, "TIME"), kept so that a time read is written back
/// the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Time {
    unix_millis: i64,
    offset_minutes: i32,
}

impl Time {
    /// The instant `unix_millis` after the epoch, written in UTC (`Z`).
    pub const fn from_unix_millis(unix_millis: i64) -> Time {
        Time {
            unix_millis,
            offset_minutes: 0,
        }
    }

    /// The same instant, written with the UTC offset `offset_minutes`.
    pub const fn with_offset_minutes(self, offset_minutes: i32) -> Time {
        Time {
            offset_minutes,
            ..self
        }
    }

    /// Milliseconds since the Unix epoch.
    pub const fn unix_millis(self) -> i64 {
        self.unix_millis
    }

    /// The UTC offset it is written with, in minutes.
    pub const fn offset_minutes(self) -> i32 {
        self.offset_minutes
    }

    /// Parses `YYYY-MM-DDThh:mm:ss(.d{1,3})?` followed by `Z`, `±hh`, `±hh:mm` or
    /// `±hhmm`; `None` when `text` is not a TIME.
    pub fn parse(text: &str) -> Option<Time> {
        let (date, rest) = text.split_once('T')?;
        let mut ymd = date.split('-');
        let (Some(y), Some(mo), Some(d), None) = (ymd.next(), ymd.next(), ymd.next(), ymd.next())
        else {
            return None;
        };
        let (year, month, day) = (
            digits(y, 4..=4)?,
            digits(mo, 2..=2).filter(|m| (1..=12).contains(m))?,
            digits(d, 2..=2).filter(|d| (1..=31).contains(d))?,
        );
        let zone_at = rest.find(['Z', '+', '-'])?;
        let (clock, zone) = rest.split_at(zone_at);
        let offset_minutes = parse_offset(zone)?;
        let (clock, fraction) = match clock.split_once('.') {
            Some((clock, fraction)) => (clock, millis_of_fraction(fraction)?),
            None => (clock, 0),
        };
        let mut hms = clock.split(':');
        let (Some(h), Some(m), Some(s), None) = (hms.next(), hms.next(), hms.next(), hms.next())
        else {
            return None;
        };
        let hour = digits(h, 2..=2).filter(|&h| h < 24)?;
        let minute = digits(m, 2..=2).filter(|&m| m < 60)?;
        let second = digits(s, 2..=2).filter(|&s| s < 61)?;
        let days = days_from_civil(year, month, day);
        let local = ((days * 24 + hour) * 60 + minute) * 60 + second;
        let unix_seconds = local - i64::from(offset_minutes) * 60;
        Some(Time {
            unix_millis: unix_seconds * 1000 + fraction,
            offset_minutes,
        })
    }
}

impl fmt::Display for Time {
    /// `YYYY-MM-DDThh:mm:ss.uuu` and `Z` or `±hh:mm`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let local = self.unix_millis + i64::from(self.offset_minutes) * 60_000;
        let (days, ms) = (local.div_euclid(86_400_000), local.rem_euclid(86_400_000));
        let (year, month, day) = civil_from_days(days);
        let (h, m, s, u) = clock(ms);
        write!(
            f,
            "{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{u:03}"
        )?;
        match self.offset_minutes {
            0 => write!(f, "Z"),
            offset => {
                let sign = if offset < 0 { '-' } else { '+' };
                let offset = offset.unsigned_abs();
                write!(f, "{sign}{:02}:{:02}", offset / 60, offset % 60)
            }
        }
    }
}

impl Serialize for Time {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Time {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Time::parse(&text).ok_or_else(|| {
            D::Error::custom(format!(
                "`{text}` is not a TIME (YYYY-MM-DDThh:mm:ss.uuu with Z or an offset)"
            ))
        })
    }
}

/// A duration written as seconds in whole milliseconds (2023-06: `time_limit`,
/// `run_time`, `max_run_time`: a number, a multiple of 0.001).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seconds(u64);

impl Seconds {
    /// `ms` milliseconds.
    pub const fn from_millis(ms: u64) -> Seconds {
        Seconds(ms)
    }

    /// The duration in milliseconds.
    pub const fn millis(self) -> u64 {
        self.0
    }
}

impl Serialize for Seconds {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.0.is_multiple_of(1000) {
            serializer.serialize_u64(self.0 / 1000)
        } else {
            // `1234 / 1000.0` prints as the shortest decimal, 1.234.
            serializer.serialize_f64(self.0 as f64 / 1000.0)
        }
    }
}

impl<'de> Deserialize<'de> for Seconds {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let seconds = f64::deserialize(deserializer)?;
        if !(seconds >= 0.0 && seconds.is_finite()) {
            return Err(D::Error::custom(format!(
                "{seconds} is not a non-negative number of seconds"
            )));
        }
        Ok(Seconds((seconds * 1000.0).round() as u64))
    }
}

/// Serde for whole minutes (2023-06 `penalty_time`): written as an integer; read as an
/// integer, or as a RELTIME (2026-01 and the EUC 2025 feed, `"0:20:00.000"`) rounded
/// down to whole minutes.
pub mod minutes {
    use super::*;

    /// Reads integer minutes or a RELTIME.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
        match serde_json::Value::deserialize(deserializer)? {
            serde_json::Value::String(text) => RelTime::parse(&text)
                .and_then(|t| u32::try_from(t.floor_minutes()).ok())
                .ok_or_else(|| D::Error::custom(format!("`{text}` is not a non-negative RELTIME"))),
            value => value
                .as_u64()
                .and_then(|m| u32::try_from(m).ok())
                .ok_or_else(|| {
                    D::Error::custom(format!("{value} is neither whole minutes nor a RELTIME"))
                }),
        }
    }

    /// [`deserialize`] for an optional field.
    pub mod option {
        use super::*;

        /// Reads integer minutes, a RELTIME or null.
        pub fn deserialize<'de, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<Option<u32>, D::Error> {
            #[derive(Deserialize)]
            struct Wrap(#[serde(deserialize_with = "super::deserialize")] u32);
            Ok(Option::<Wrap>::deserialize(deserializer)?.map(|Wrap(m)| m))
        }
    }
}

/// Hours, minutes, seconds and milliseconds of `ms` milliseconds.
fn clock<T: Into<i128>>(ms: T) -> (i128, i128, i128, i128) {
    let ms = ms.into();
    (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
}

/// Parses ASCII digits whose count is in `len`.
fn digits(text: &str, len: std::ops::RangeInclusive<usize>) -> Option<i64> {
    if !len.contains(&text.len()) || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Milliseconds of a fraction of one to three decimals (`5` is 500 ms).
fn millis_of_fraction(fraction: &str) -> Option<i64> {
    let value = digits(fraction, 1..=3)?;
    Some(value * 10_i64.pow(3 - fraction.len() as u32))
}

/// `Z`, `±hh`, `±hh:mm` or `±hhmm`, in minutes east of UTC.
fn parse_offset(zone: &str) -> Option<i32> {
    if zone == "Z" {
        return Some(0);
    }
    let sign = match zone.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let rest = &zone[1..];
    let (h, m) = match rest.len() {
        2 => (rest, "00"),
        4 => rest.split_at(2),
        5 => rest.split_once(':')?,
        _ => return None,
    };
    let hours = digits(h, 2..=2).filter(|&h| h < 24)?;
    let minutes = digits(m, 2..=2).filter(|&m| m < 60)?;
    Some(sign * (hours * 60 + minutes) as i32)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The date of a day since 1970-01-01, the inverse of [`days_from_civil`].
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reltime_round_trips_in_the_canonical_form() {
        for (text, ms) in [
            ("0:00:00.000", 0),
            ("0:20:00.000", 1_200_000),
            ("5:00:00.000", 18_000_000),
            ("-0:06:13.697", -373_697),
            ("123:04:05.006", 443_045_006),
        ] {
            let parsed = RelTime::parse(text).expect(text);
            assert_eq!(parsed.millis(), ms, "{text}");
            assert_eq!(parsed.to_string(), text);
        }
    }

    #[test]
    fn reltime_reads_the_forms_feeds_write() {
        let read = |t: &str| RelTime::parse(t).map(RelTime::millis);
        assert_eq!(read("01:00:00"), Some(3_600_000));
        assert_eq!(read("00:05:29.204"), Some(329_204));
        assert_eq!(read("0:10:59.9"), Some(659_900));
        assert_eq!(read("5:00:00"), Some(18_000_000));
    }

    #[test]
    fn reltime_rejects_what_is_not_one() {
        for bad in [
            "",
            "soon",
            "1:00",
            "1:60:00",
            "1:00:60",
            "1:5:00",
            "1:00:0",
            "1:00:00.",
            "1:00:00.1234",
            "--1:00:00",
            "+1:00:00",
            "1:00:00:00",
            " 1:00:00",
            "1:00:00Z",
            "a:00:00",
        ] {
            assert_eq!(RelTime::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn time_reads_each_offset_form_as_the_same_instant() {
        // 2023-02-25T19:00:00.004Z in each form.
        let want = 1_677_351_600_004;
        for text in [
            "2023-02-25T19:00:00.004Z",
            "2023-02-25T14:00:00.004-05",
            "2023-02-25T14:00:00.004-05:00",
            "2023-02-25T14:00:00.004-0500",
            "2023-02-25T20:00:00.004+01:00",
        ] {
            assert_eq!(
                Time::parse(text).map(Time::unix_millis),
                Some(want),
                "{text}"
            );
        }
        assert_eq!(
            Time::parse("2025-03-02T09:30:00Z").map(Time::unix_millis),
            Some(1_740_907_800_000)
        );
    }

    #[test]
    fn time_writes_back_in_its_own_offset() {
        for (text, canonical) in [
            (
                "2023-02-25T14:00:00.004-05",
                "2023-02-25T14:00:00.004-05:00",
            ),
            ("2025-03-02T09:30:00Z", "2025-03-02T09:30:00.000Z"),
            (
                "2024-02-29T23:59:59.999+05:30",
                "2024-02-29T23:59:59.999+05:30",
            ),
            ("1969-12-31T23:00:00.000Z", "1969-12-31T23:00:00.000Z"),
        ] {
            let time = Time::parse(text).expect(text);
            assert_eq!(time.to_string(), canonical);
            assert_eq!(Time::parse(canonical), Some(time));
        }
        assert_eq!(
            Time::from_unix_millis(0).to_string(),
            "1970-01-01T00:00:00.000Z"
        );
    }

    #[test]
    fn time_rejects_what_is_not_one() {
        for bad in [
            "",
            "2023-02-25",
            "2023-02-25T14:00:00",
            "2023-02-25 14:00:00Z",
            "2023-13-25T14:00:00Z",
            "2023-02-25T24:00:00Z",
            "2023-02-25T14:00:00+5",
            "2023-02-25T14:00:00.1234Z",
            "23-02-25T14:00:00Z",
        ] {
            assert_eq!(Time::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn minutes_read_as_integers_or_reltimes_and_seconds_in_milliseconds() {
        #[derive(Deserialize, Serialize)]
        struct Penalty {
            #[serde(deserialize_with = "minutes::deserialize")]
            penalty_time: u32,
            run_time: Seconds,
        }
        for text in [
            r#"{"penalty_time":20,"run_time":1.5}"#,
            r#"{"penalty_time":"0:20:00.000","run_time":1.5}"#,
        ] {
            let it: Penalty = serde_json::from_str(text).expect(text);
            assert_eq!((it.penalty_time, it.run_time.millis()), (20, 1500));
            assert_eq!(
                serde_json::to_string(&it).expect("writes"),
                r#"{"penalty_time":20,"run_time":1.5}"#
            );
        }
        let bad = serde_json::from_str::<Penalty>(r#"{"penalty_time":"twenty","run_time":1}"#);
        assert!(bad.is_err());
        assert_eq!(
            serde_json::to_string(&Seconds::from_millis(2000)).expect("writes"),
            "2"
        );
    }
}
