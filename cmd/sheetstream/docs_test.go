package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestHelpAgreesWithGuide: every flag a command's --help (or one of its
// subcommands') lists is in its section of docs/cli.md, and every flag that section names is one the
// command has, so the guide and --help cannot drift apart.
func TestHelpAgreesWithGuide(t *testing.T) {
	guide, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]string{}
	for _, part := range strings.Split(string(guide), "\n## ")[1:] {
		name, body, _ := strings.Cut(part, "\n")
		sections[name] = body
	}
	flagRef := regexp.MustCompile(`--[a-z][a-z0-9-]*`)
	for _, cmd := range rootCmd().Commands() {
		if cmd.Hidden || cmd.Name() == "help" || cmd.Name() == "completion" {
			continue
		}
		body, ok := sections[cmd.Name()]
		if !ok {
			t.Errorf("docs/cli.md has no section \"## %s\"", cmd.Name())
			continue
		}
		var helpFlags []string
		for _, c := range append([]*cobra.Command{cmd}, cmd.Commands()...) {
			visit := func(f *pflag.Flag) {
				if f.Name != "help" && !slices.Contains(helpFlags, "--"+f.Name) {
					helpFlags = append(helpFlags, "--"+f.Name)
				}
			}
			c.Flags().VisitAll(visit)
			c.PersistentFlags().VisitAll(visit)
		}
		named := slices.Compact(slices.Sorted(slices.Values(flagRef.FindAllString(body, -1))))
		for _, f := range helpFlags {
			if !slices.Contains(named, f) {
				t.Errorf("%s --help lists %s, which docs/cli.md's section does not name", cmd.Name(), f)
			}
		}
		for _, f := range named {
			if !slices.Contains(helpFlags, f) {
				t.Errorf("docs/cli.md's %s section names %s, which %s --help does not list", cmd.Name(), f, cmd.Name())
			}
		}
	}
}
