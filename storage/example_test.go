package storage_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/sheetstream/sheetstream/storage"
)

// A file appears under its key only once whatever writes it returns nil;
// a write that fails leaves nothing there.
func ExampleStorage() {
	dir, _ := os.MkdirTemp("", "exports")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	store, err := storage.Open(ctx, dir) // or s3://bucket/prefix?endpoint=...
	if err != nil {
		log.Fatal(err)
	}
	size, err := store.Put(ctx, "orders/2026-11-27.csv", func(w io.Writer) error {
		_, err := io.WriteString(w, "id,amount\n1,9.5\n")
		return err
	})
	fmt.Println(size, err)
	_, err = store.Put(ctx, "orders/broken.csv", func(w io.Writer) error {
		io.WriteString(w, "id,amo")
		return fmt.Errorf("the database went away")
	})
	fmt.Println(err)
	_, _, err = store.Get(ctx, "orders/broken.csv")
	fmt.Println(err)
	r, _, err := store.Get(ctx, "orders/2026-11-27.csv")
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	b, _ := io.ReadAll(r)
	fmt.Printf("%q\n", b)
	// Output:
	// 16 <nil>
	// the database went away
	// no such file: orders/broken.csv
	// "id,amount\n1,9.5\n"
}
