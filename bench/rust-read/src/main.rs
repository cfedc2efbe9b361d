//! calamine-read MODE FILE: reads every cell of the first sheet of FILE
//! and prints how many cells and how many characters of text it saw.
//! MODE is "cells" (worksheet_cells_reader, streaming) or "range"
//! (worksheet_range, the whole sheet in memory) for .xlsx, or "auto"
//! (open_workbook_auto and worksheet_range: .xls, .xlsb, .ods, whatever
//! the extension says).
use calamine::{open_workbook, open_workbook_auto, Data, DataRef, Reader, Xlsx};
use std::io::BufReader;
use std::fs::File;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (mode, path) = (args[1].as_str(), &args[2]);
    if mode == "auto" {
        let mut wb = open_workbook_auto(path)?;
        let sheet = wb.sheet_names()[0].clone();
        let range = wb.worksheet_range(&sheet)?;
        let (mut cells, mut chars, mut sum) = (0u64, 0u64, 0f64);
        for c in range.used_cells() {
            cells += 1;
            match c.2 {
                Data::String(s) => chars += s.len() as u64,
                Data::Float(f) => sum += f,
                Data::Int(i) => sum += *i as f64,
                Data::DateTime(d) => sum += d.as_f64(),
                _ => {}
            }
        }
        println!("{cells} cells, {chars} text bytes, sum {sum}");
        return Ok(());
    }
    let mut wb: Xlsx<BufReader<File>> = open_workbook(path)?;
    let sheet = wb.sheet_names()[0].clone();
    let (mut cells, mut chars, mut sum) = (0u64, 0u64, 0f64);
    match mode {
        "cells" => {
            let mut r = wb.worksheet_cells_reader(&sheet)?;
            while let Some(c) = r.next_cell()? {
                cells += 1;
                match c.get_value() {
                    DataRef::String(s) => chars += s.len() as u64,
                    DataRef::SharedString(s) => chars += s.len() as u64,
                    DataRef::Float(f) => sum += f,
                    DataRef::Int(i) => sum += *i as f64,
                    DataRef::DateTime(d) => sum += d.as_f64(),
                    _ => {}
                }
            }
        }
        "range" => {
            let range = wb.worksheet_range(&sheet)?;
            for c in range.used_cells() {
                cells += 1;
                match c.2 {
                    Data::String(s) => chars += s.len() as u64,
                    Data::Float(f) => sum += f,
                    Data::Int(i) => sum += *i as f64,
                    Data::DateTime(d) => sum += d.as_f64(),
                    _ => {}
                }
            }
        }
        _ => return Err("mode is cells or range".into()),
    }
    println!("{cells} cells, {chars} text bytes, sum {sum}");
    Ok(())
}
