package bench;

import java.io.FileInputStream;
import java.io.InputStream;
import java.util.Iterator;
import java.util.stream.Stream;
import org.dhatim.fastexcel.reader.Cell;
import org.dhatim.fastexcel.reader.ReadableWorkbook;
import org.dhatim.fastexcel.reader.Row;

/** Reads every cell of the first sheet with fastexcel-reader, typed: FastexcelRead FILE. */
public class FastexcelRead {
    public static void main(String[] args) throws Exception {
        long cells = 0, chars = 0;
        double sum = 0;
        try (InputStream is = new FileInputStream(args[0]); ReadableWorkbook wb = new ReadableWorkbook(is);
             Stream<Row> rows = wb.getFirstSheet().openStream()) {
            Iterator<Row> it = rows.iterator();
            while (it.hasNext()) {
                for (Cell c : it.next()) {
                    if (c == null) continue;
                    switch (c.getType()) {
                        case NUMBER -> { sum += c.asNumber().doubleValue(); cells++; }
                        case STRING -> { chars += c.asString().length(); cells++; }
                        case BOOLEAN, ERROR, FORMULA -> cells++;
                        default -> { }
                    }
                }
            }
        }
        System.out.println(cells + " cells, " + chars + " text chars, sum " + sum);
    }
}
