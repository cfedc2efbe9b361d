# Sourced by the test scripts: apt_install PACKAGE... installs Debian
# packages quietly (output to stderr). A machine whose dpkg was left
# half-configured (an earlier install interrupted: "dpkg returned an error
# code (1)") is repaired with dpkg --configure -a and the install tried
# once more, so a fresh machine passes on its first run.
apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  if (apt-get update -qq && apt-get install -y -qq "$@") >&2; then
    return 0
  fi
  echo "== apt-get install $* failed; repairing dpkg and trying once more" >&2
  dpkg --configure -a >&2 || true
  apt-get install -y -qq -f >&2 || true
  (apt-get update -qq && apt-get install -y -qq "$@") >&2
}
