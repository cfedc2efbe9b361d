package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// passwordEnv holds a workbook password for commands that read
// encrypted workbooks, and for those that write one with --encrypt.
const passwordEnv = "SHEETSTREAM_PASSWORD"

// password is where a command finds a workbook's password: --password
// (seen by other users in the process list), --password-file (its first
// line), the SHEETSTREAM_PASSWORD environment variable, or a prompt on
// the terminal.
type password struct {
	value, file string
	encrypt     bool
	cmd         *cobra.Command
}

// readFlags adds the flags of commands that read workbooks.
func (p *password) readFlags(cmd *cobra.Command) {
	p.cmd = cmd
	cmd.Flags().StringVar(&p.value, "password", "", "password of an encrypted workbook (visible to other users in the process list: prefer --password-file or "+passwordEnv+"; without either you are asked on a terminal)")
	cmd.Flags().StringVar(&p.file, "password-file", "", "read the password from the first line of FILE")
}

// writeFlags adds the flags of commands that write workbooks.
func (p *password) writeFlags(cmd *cobra.Command) {
	p.cmd = cmd
	cmd.Flags().StringVar(&p.value, "password", "", "encrypt the workbook with this password (AES-256, as Excel does; visible in the process list: prefer --password-file or --encrypt)")
	cmd.Flags().StringVar(&p.file, "password-file", "", "encrypt with the password on the first line of FILE")
	cmd.Flags().BoolVar(&p.encrypt, "encrypt", false, "encrypt with the password in "+passwordEnv+", or one asked for on the terminal")
}

// given is the password the flags name, "" if none.
func (p *password) given() (string, error) {
	if p.cmd != nil && p.cmd.Flags().Changed("password") {
		if p.value == "" {
			return "", errors.New("--password is empty")
		}
		return p.value, nil
	}
	if p.file != "" {
		b, err := os.ReadFile(p.file)
		if err != nil {
			return "", fmt.Errorf("--password-file: %w", err)
		}
		line, _, _ := strings.Cut(string(b), "\n")
		line = strings.TrimSuffix(line, "\r")
		if line == "" {
			return "", fmt.Errorf("--password-file %s: the first line is empty", p.file)
		}
		return line, nil
	}
	return "", nil
}

// asked says whether any password flag is given (--encrypt included).
func (p *password) asked() bool {
	return p.encrypt || p.file != "" || p.cmd != nil && p.cmd.Flags().Changed("password")
}

// forEncrypted finds the password of the encrypted workbook name when the
// flags gave none: the environment, else the terminal.
func (p *password) forEncrypted(name string) (string, error) {
	if v := os.Getenv(passwordEnv); v != "" {
		return v, nil
	}
	return prompt(fmt.Sprintf("Password for %s: ", name), false)
}

// forWriting is the password to encrypt with, "" to write a plain
// workbook.
func (p *password) forWriting() (string, error) {
	v, err := p.given()
	if err != nil || v != "" || !p.encrypt {
		return v, err
	}
	if v := os.Getenv(passwordEnv); v != "" {
		return v, nil
	}
	return prompt("Password to encrypt the workbook with: ", true)
}

// errNoTerminal: a password was needed and there is no terminal to ask
// on; the message names the other ways to give it.
var errNoTerminal = errors.New("no terminal to ask for the password on: give --password-file or " + passwordEnv)

// prompt asks on the terminal (not standard input, which may carry a
// workbook), twice when confirming.
func prompt(question string, confirm bool) (string, error) {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil || !term.IsTerminal(int(tty.Fd())) {
		return "", errNoTerminal
	}
	defer tty.Close()
	ask := func(q string) (string, error) {
		fmt.Fprint(tty, q)
		b, err := term.ReadPassword(int(tty.Fd()))
		fmt.Fprintln(tty)
		return string(b), err
	}
	v, err := ask(question)
	if err != nil {
		return "", err
	}
	if v == "" {
		return "", errors.New("no password given")
	}
	if confirm {
		again, err := ask("Again: ")
		if err != nil {
			return "", err
		}
		if again != v {
			return "", errors.New("the passwords differ")
		}
	}
	return v, nil
}
