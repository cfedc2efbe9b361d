//go:build !lite

package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/sheetstream/sheetstream/auth"
)

// tokenCmd makes API tokens for auth.tokens.
func tokenCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "token new NAME",
		Short: "Make an API token and the line of auth.tokens that accepts it",
	}
	var groups []string
	newCmd := &cobra.Command{
		Use:   "new NAME",
		Short: "Print a fresh API token, and the configuration line that keeps only its SHA-256",
		Long: `Print a fresh API token for a script or CI job, and the entry of the service's
auth.tokens that accepts it: the configuration holds only the token's SHA-256,
so the file reveals no token. Give the token to its user once; it is not
stored anywhere.

Every flag: https://github.com/sheetstream/sheetstream/blob/main/docs/cli.md#token`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := auth.New(auth.Config{Tokens: []*auth.Token{{Name: args[0], SHA256: fmt.Sprintf("%064d", 0)}}}, ""); err != nil {
				return err
			}
			token, sum := auth.NewToken()
			fmt.Printf("token: %s\n", token)
			line := fmt.Sprintf("    - {name: %s, sha256: %s", args[0], sum)
			if len(groups) > 0 {
				line += ", groups: ["
				for i, g := range groups {
					if i > 0 {
						line += ", "
					}
					line += g
				}
				line += "]"
			}
			fmt.Printf("# under auth.tokens in the configuration:\n%s}\n", line)
			return nil
		},
	}
	newCmd.Flags().StringSliceVar(&groups, "groups", nil, "the token's groups (comma-separated)")
	cmd.AddCommand(newCmd)
	return cmd
}
