package sqlsheet

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/go-sql-driver/mysql"
)

// localInfile says whether the server takes LOAD DATA LOCAL (MariaDB's
// default; MySQL 8's is off).
func localInfile(ctx context.Context, tx *sql.Tx) bool {
	var on int
	return tx.QueryRowContext(ctx, "SELECT @@local_infile").Scan(&on) == nil && on == 1
}

var loadDataSeq atomic.Int64

// loadData streams the rows into table with LOAD DATA LOCAL, in the
// tab-separated text LOAD DATA reads by default (the same escapes as
// PostgreSQL's COPY), written straight from the tagged values on a
// goroutine of its own: the way MySQL's own client loads a file.
//
// With LOCAL, the server turns bad values into warnings instead of
// errors (it cannot stop the file half way), so any warning fails the
// import and the transaction rolls back: nothing is loaded changed.
func (imp *importer) loadData(ctx context.Context, tx *sql.Tx, table, names string) error {
	name := "sheetstream-import-" + strconv.FormatInt(loadDataSeq.Add(1), 10)
	pr, pw := io.Pipe()
	mysql.RegisterReaderHandler(name, func() io.Reader { return pr })
	defer mysql.DeregisterReaderHandler(name)
	produced := make(chan error, 1)
	var sent copyLines
	go func() {
		err := imp.writeCopyText(ctx, pw, &sent)
		pw.CloseWithError(err)
		produced <- err
	}()
	_, err := tx.ExecContext(ctx, "LOAD DATA LOCAL INFILE 'Reader::"+name+"' INTO TABLE "+imp.engine.quoteTable(table)+
		` CHARACTER SET utf8mb4 FIELDS TERMINATED BY '\t' ESCAPED BY '\\' LINES TERMINATED BY '\n' (`+names+")")
	pr.CloseWithError(errCopyEnded)
	if perr := <-produced; perr != nil && !errors.Is(perr, errCopyEnded) {
		return perr
	}
	if err != nil {
		return fmt.Errorf("load into %s: %w", imp.opts.Table, err)
	}
	var warnings int
	if err := tx.QueryRowContext(ctx, "SELECT @@warning_count").Scan(&warnings); err != nil {
		return err
	}
	if warnings > 0 {
		var level, msg string
		var code int
		tx.QueryRowContext(ctx, "SHOW WARNINGS LIMIT 1").Scan(&level, &code, &msg)
		line, at := loadDataLine(msg)
		num := sent.row(line)
		if num > 0 {
			msg = msg[:at] // the server's row is the load's; the error names the source's
		}
		err := fmt.Errorf("the table did not take every row as it was (%d warnings); the first: %s", warnings, msg)
		if num > 0 {
			return &ImportError{Table: imp.opts.Table, Sheet: imp.src.SheetName(), Row: num, Err: err}
		}
		return fmt.Errorf("load into %s: %w", imp.opts.Table, err)
	}
	return nil
}

// loadDataLine reads the line a LOAD DATA warning ends with, "... at row
// 3", 1 for the first row, and where that suffix starts; 0 when it names
// none (a duplicate key's does not).
func loadDataLine(msg string) (line, at int) {
	at = strings.LastIndex(msg, " at row ")
	if at < 0 {
		return 0, 0
	}
	n, err := strconv.Atoi(msg[at+len(" at row "):])
	if err != nil || n < 1 {
		return 0, 0
	}
	return n, at
}
