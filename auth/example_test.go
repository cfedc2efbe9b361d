package auth_test

import (
	"fmt"
	"log"
	"net/http/httptest"

	"github.com/sheetstream/sheetstream/auth"
)

// A static API token: the configuration keeps only its SHA-256, and a
// request bearing the token is that token's identity, keyed as
// token:NAME wherever the service keeps something for it.
func ExampleAuthenticator_Authenticate() {
	token, sum := auth.NewToken() // sheetstream token new prints such a pair
	a, err := auth.New(auth.Config{Tokens: []*auth.Token{{Name: "ci", SHA256: sum, Groups: []string{"finance"}}}}, "")
	if err != nil {
		log.Fatal(err)
	}
	r := httptest.NewRequest("GET", "/api/exports", nil)
	r.Header.Set("Authorization", "Bearer "+token)
	id, err := a.Authenticate(r)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(id.Key(), id.Method, id.InGroup("finance"))

	r.Header.Set("Authorization", "Bearer sst_not-a-token")
	_, err = a.Authenticate(r)
	fmt.Println(err)
	// Output:
	// token:ci token true
	// invalid credentials: unknown token
}
