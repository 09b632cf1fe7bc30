use std::time::Instant;
fn main() {
    let path = std::path::PathBuf::from(std::env::args().nth(1).unwrap());
    let t0 = Instant::now();
    let mut sink = std::io::sink();
    relic::ops::list_json(&path, false, &mut sink).unwrap();
    let first = t0.elapsed();
    let mut v = Vec::new();
    for _ in 0..400 {
        let t = Instant::now();
        relic::ops::list_json(&path, false, &mut sink).unwrap();
        v.push(t.elapsed().as_micros());
    }
    v.sort();
    println!("first {first:?}, warm median {} µs", v[200]);
}
