//! JSON and CSV output for documents.

#[cfg(feature = "export")]
use super::Exported;
#[cfg(feature = "export")]
use crate::asset::Document;
use crate::error::{Error, Result};

pub fn to_pretty(value: &serde_json::Value) -> Result<Vec<u8>> {
    let mut out = serde_json::to_vec_pretty(value).map_err(|e| Error::Unsupported(format!("JSON output: {e}")))?;
    out.push(b'\n');
    Ok(out)
}

/// A Unix time (seconds since 1970-01-01 UTC) as ISO 8601 in UTC, `2023-11-14T22:13:20Z`, for `relic info`
/// to show beside the raw value. Howard Hinnant's days-to-civil algorithm: exact over the proleptic
/// Gregorian calendar, so no date crate is needed for one conversion.
pub fn utc_iso8601(unix_seconds: i64) -> String {
    let days = unix_seconds.div_euclid(86_400);
    let second_of_day = unix_seconds.rem_euclid(86_400);
    // Days since 0000-03-01, counted in 400-year eras of 146,097 days (March first: leap days fall last).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 { month_from_march + 3 } else { month_from_march - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        second_of_day / 3600,
        second_of_day % 3600 / 60,
        second_of_day % 60
    )
}

#[cfg(feature = "export")]
#[cfg_attr(docsrs, doc(cfg(feature = "export")))]
/// One CSV file per table (`<stem>.<table>.csv`, or `<stem>.csv` for a single table).
pub fn tables_to_csv(doc: &Document) -> Result<Vec<Exported>> {
    if doc.tables.is_empty() {
        return Err(Error::Unsupported("this document has no tables to write as CSV".into()));
    }
    let single = doc.tables.len() == 1;
    doc.tables
        .iter()
        .map(|t| {
            let mut w = csv::Writer::from_writer(Vec::new());
            let io = |e: csv::Error| Error::Unsupported(format!("CSV output: {e}"));
            w.write_record(&t.columns).map_err(io)?;
            for row in &t.rows {
                w.write_record(row).map_err(io)?;
            }
            let bytes = w.into_inner().map_err(|e| Error::Unsupported(format!("CSV output: {e}")))?;
            let suffix = if single { String::new() } else { format!(".{}", t.name) };
            Ok(Exported { suffix, extension: "csv", bytes })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::utc_iso8601;

    #[test]
    fn unix_times_become_utc_dates() {
        assert_eq!(utc_iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_iso8601(1_700_000_000), "2023-11-14T22:13:20Z");
        // Leap days: 2000 is a leap year (divisible by 400), 2100 is not.
        assert_eq!(utc_iso8601(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc_iso8601(4_107_542_400), "2100-03-01T00:00:00Z");
        // The largest u32 (the RES field's range) and a time before 1970.
        assert_eq!(utc_iso8601(i64::from(u32::MAX)), "2106-02-07T06:28:15Z");
        assert_eq!(utc_iso8601(-1), "1969-12-31T23:59:59Z");
    }
}
