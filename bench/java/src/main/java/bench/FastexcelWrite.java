package bench;

import java.io.FileOutputStream;
import java.io.OutputStream;
import org.dhatim.fastexcel.Workbook;
import org.dhatim.fastexcel.Worksheet;

/** Writes a workload (W1, W2, W3) with dhatim fastexcel: FastexcelWrite W OUT [ROWS]. */
public class FastexcelWrite {
    static final String[] P = {"alpha & beta", "Café résumé", "x < y > z", "中文字符测试",
        "plain text value", "Tom & Jerry <b>", "naïve façade", "数据-data-mix"};

    public static void main(String[] args) throws Exception {
        String w = args[0];
        int rows = args.length > 2 ? Integer.parseInt(args[2]) : switch (w) {
            case "W1" -> 1_000_000;
            case "W2" -> 100_000;
            default -> 200_000;
        };
        try (OutputStream os = new FileOutputStream(args[1])) {
            Workbook wb = new Workbook(os, "fastexcel-bench", "1.0");
            Worksheet ws = wb.newWorksheet("Sheet1");
            switch (w) {
                case "W1" -> {
                    for (int j = 0; j < 10; j++) ws.value(0, j, "col" + (j + 1));
                    for (int i = 0; i < rows; i++) {
                        int r = i + 1;
                        ws.value(r, 0, i);
                        ws.value(r, 1, (long) i * 7 % 100000);
                        ws.value(r, 2, (long) i * 13 % 1000);
                        ws.value(r, 3, (long) i * 31 % 1000000);
                        ws.value(r, 4, i * 1.25 + 0.5);
                        ws.value(r, 5, (i % 10000) / 100.0);
                        ws.value(r, 6, i / 7.0);
                        ws.value(r, 7, "name-" + (i % 1000));
                        ws.value(r, 8, "city-" + (i % 50));
                        ws.value(r, 9, "x" + i);
                        if (i % 1000 == 0) ws.flush();
                    }
                }
                case "W2" -> {
                    for (int i = 0; i < rows; i++) {
                        for (int j = 0; j < 100; j++) {
                            if (j % 2 == 0) ws.value(i, j, (long) i * (j + 1) % 1000003);
                            else ws.value(i, j, ((long) i * j % 100000) / 100.0);
                        }
                        if (i % 100 == 0) ws.flush();
                    }
                }
                default -> {
                    for (int i = 0; i < rows; i++) {
                        for (int j = 0; j < 10; j++) ws.value(i, j, "row " + i + " col " + j + ": " + P[(3 * i + j) % 8]);
                        if (i % 1000 == 0) ws.flush();
                    }
                }
            }
            ws.finish();
            wb.finish();
        }
    }
}
