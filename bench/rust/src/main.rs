// Writes a benchmark workload (bench/README.md) with rust_xlsxwriter in
// constant-memory mode. Usage: rxw-bench W1|W2|W3 OUT.xlsx [ROWS]
use rust_xlsxwriter::{Workbook, XlsxError};

const PHRASES: [&str; 8] = ["alpha & beta", "Café résumé", "x < y > z", "中文字符测试", "plain text value",
    "Tom & Jerry <b>", "naïve façade", "数据-data-mix"];

fn main() -> Result<(), XlsxError> {
    let args: Vec<String> = std::env::args().collect();
    let workload = args[1].as_str();
    let out = &args[2];
    let rows_override: Option<u32> = args.get(3).map(|s| s.parse().unwrap());
    let mut workbook = Workbook::new();
    let sheet = workbook.add_worksheet_with_constant_memory()?;
    match workload {
        "W1" => {
            for j in 0..10u16 {
                sheet.write_string(0, j, format!("col{}", j + 1))?;
            }
            let rows = rows_override.unwrap_or(1_000_000);
            for i in 0..rows {
                let r = i + 1;
                let iu = i as u64;
                sheet.write_number(r, 0, iu as f64)?;
                sheet.write_number(r, 1, (iu * 7 % 100000) as f64)?;
                sheet.write_number(r, 2, (iu * 13 % 1000) as f64)?;
                sheet.write_number(r, 3, (iu * 31 % 1000000) as f64)?;
                sheet.write_number(r, 4, iu as f64 * 1.25 + 0.5)?;
                sheet.write_number(r, 5, (iu % 10000) as f64 / 100.0)?;
                sheet.write_number(r, 6, iu as f64 / 7.0)?;
                sheet.write_string(r, 7, format!("name-{}", iu % 1000))?;
                sheet.write_string(r, 8, format!("city-{}", iu % 50))?;
                sheet.write_string(r, 9, format!("x{}", iu))?;
            }
        }
        "W2" => {
            let rows = rows_override.unwrap_or(100_000);
            for i in 0..rows {
                let iu = i as u64;
                for j in 0..100u64 {
                    if j % 2 == 0 {
                        sheet.write_number(i, j as u16, ((iu * (j + 1)) % 1000003) as f64)?;
                    } else {
                        sheet.write_number(i, j as u16, ((iu * j) % 100000) as f64 / 100.0)?;
                    }
                }
            }
        }
        "W3" => {
            let rows = rows_override.unwrap_or(200_000);
            for i in 0..rows {
                for j in 0..10u32 {
                    let p = PHRASES[((3 * i as u64 + j as u64) % 8) as usize];
                    sheet.write_string(i, j as u16, format!("row {} col {}: {}", i, j, p))?;
                }
            }
        }
        _ => panic!("unknown workload {}", workload),
    }
    workbook.save(out)?;
    Ok(())
}
