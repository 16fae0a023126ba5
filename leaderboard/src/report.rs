//! Reports: an SVG plot of the human rating distribution with the model's rating marked.
//!
//! Plain SVG text with no dependency: one bar per 100-point bin of the humans' ratings,
//! and a vertical line at the model's rating with its name (which names the method,
//! e.g. `codeelo_rating`), so that a reader sees which rating is plotted.

use std::fmt::Write;

/// Width of a rating bin.
const BIN: f64 = 100.0;
const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 320.0;
const MARGIN: f64 = 40.0;

/// Counts of `ratings` per 100-point bin, from the bin of the lowest rating (or of
/// `marker`, if lower) to the bin of the highest: `(bin start, count)`.
pub fn histogram(ratings: &[f64], marker: Option<f64>) -> Vec<(f64, usize)> {
    let all = ratings.iter().chain(marker.as_ref()).copied();
    let lo = all.clone().fold(f64::INFINITY, f64::min);
    let hi = all.fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() || !hi.is_finite() {
        return Vec::new();
    }
    let first = (lo / BIN).floor() as i64;
    let last = (hi / BIN).floor() as i64;
    let mut counts = vec![0; (last - first + 1) as usize];
    for r in ratings {
        counts[((r / BIN).floor() as i64 - first) as usize] += 1;
    }
    counts
        .into_iter()
        .enumerate()
        .map(|(i, n)| ((first + i as i64) as f64 * BIN, n))
        .collect()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The SVG plot: `title` above, one bar per bin of `ratings`, and `marker` (a label and
/// a rating) as a red vertical line.
pub fn rating_plot(title: &str, ratings: &[f64], marker: Option<(&str, f64)>) -> String {
    let bins = histogram(ratings, marker.map(|(_, r)| r));
    let tallest = bins.iter().map(|&(_, n)| n).max().unwrap_or(0).max(1) as f64;
    let plot_width = WIDTH - 2.0 * MARGIN;
    let plot_height = HEIGHT - 2.0 * MARGIN;
    let bar = plot_width / bins.len().max(1) as f64;
    let start = bins.first().map_or(0.0, |&(b, _)| b);
    let x_of = |rating: f64| MARGIN + (rating - start) / BIN * bar;
    let mut svg = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<text x="{MARGIN}" y="20">{}</text>"#, escape(title));
    for &(bin, n) in &bins {
        let h = n as f64 / tallest * plot_height;
        let _ = writeln!(
            svg,
            r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{h:.1}" fill="#8aa"><title>{bin}-{}: {n}</title></rect>"##,
            x_of(bin),
            HEIGHT - MARGIN - h,
            bar,
            bin + BIN - 1.0
        );
    }
    let _ = writeln!(
        svg,
        r#"<text x="{MARGIN}" y="{}">{start}</text><text x="{}" y="{}" text-anchor="end">{}</text>"#,
        HEIGHT - MARGIN + 15.0,
        WIDTH - MARGIN,
        HEIGHT - MARGIN + 15.0,
        start + bins.len() as f64 * BIN
    );
    if let Some((label, rating)) = marker {
        let x = x_of(rating);
        // The label runs away from the nearer edge.
        let anchor = if x > WIDTH / 2.0 { "end" } else { "start" };
        let _ = writeln!(
            svg,
            r#"<line x1="{x:.1}" y1="{MARGIN}" x2="{x:.1}" y2="{}" stroke="red" stroke-width="2"/><text x="{x:.1}" y="{}" fill="red" text-anchor="{anchor}">{} {rating:.0}</text>"#,
            HEIGHT - MARGIN,
            MARGIN - 4.0,
            escape(label)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_cover_the_ratings_and_the_marker() {
        let bins = histogram(&[1210.0, 1250.0, 1399.0, 1400.0, -5.0], Some(1850.0));
        assert_eq!(bins.first(), Some(&(-100.0, 1)));
        assert_eq!(bins.last(), Some(&(1800.0, 0)));
        assert_eq!(bins.iter().map(|&(_, n)| n).sum::<usize>(), 5);
        let at = |start: f64| bins.iter().find(|&&(b, _)| b == start).map(|&(_, n)| n);
        assert_eq!(at(1200.0), Some(2));
        assert_eq!(at(1300.0), Some(1));
        assert_eq!(at(1400.0), Some(1));
        assert!(histogram(&[], None).is_empty());
    }

    #[test]
    fn plot_has_a_bar_per_bin_and_the_named_marker() {
        let svg = rating_plot(
            "round <1342>",
            &[1210.0, 1250.0, 1450.0],
            Some(("codeelo_rating", 1380.0)),
        );
        assert!(
            svg.starts_with("<svg ") && svg.ends_with("</svg>\n"),
            "{svg}"
        );
        assert_eq!(svg.matches("<rect ").count(), 3);
        assert!(svg.contains("round &lt;1342&gt;"), "{svg}");
        assert!(svg.contains(">codeelo_rating 1380</text>"), "{svg}");
        // Right of the middle: the label runs left.
        assert!(svg.contains(r#"text-anchor="end">codeelo_rating"#), "{svg}");
        // The marker sits between the bar of bin 1300 and the bar of bin 1400.
        let x = |needle: &str| -> f64 {
            let at = svg.find(needle).expect("present") + needle.len();
            svg[at..]
                .split('"')
                .next()
                .expect("value")
                .parse()
                .expect("number")
        };
        let line = x("<line x1=\"");
        let bar = (640.0 - 80.0) / 3.0;
        assert!(line > 40.0 + bar && line < 40.0 + 2.0 * bar, "{line}");
    }
}
