"""The memory-path guard in process: what it denies, what it allows, and what it says it
cannot tell (left to the git hooks, which judge what is committed whoever wrote it)."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gitmem.agents.guard import MAX_JUDGED, Guard, bash_targets


@pytest.fixture
def guard(tmp_path: Path) -> Guard:
    (tmp_path / ".gitmem" / "entries").mkdir(parents=True)
    (tmp_path / "docs" / "memory").mkdir(parents=True)
    (tmp_path / "src").mkdir()
    return Guard(str(tmp_path), [".gitmem", "docs/memory/"])


def _bash(guard: Guard, command: str, cwd: Path) -> bool:
    return guard.judge_tool("Bash", {"command": command}, str(cwd)) is not None


@pytest.mark.parametrize(
    "command",
    [
        "echo x > .gitmem/entries/a.md",
        "echo x >> .gitmem/INDEX.md",
        "echo x >| .gitmem/refused.md",
        "echo '| aws-access-key-id:6d02d2fa |' >> .gitmem/allowed.md",
        "echo x &> .gitmem/candidates/c.md",
        "cmd 1> docs/memory/entries/a.md",
        "true; touch .gitmem/entries/new.md",
        "false || truncate -s0 .gitmem/INDEX.md",
        "(cd .gitmem && rm entries/a.md)",
        "cd docs && mkdir memory/candidates",
        "sudo -n rm .gitmem/entries/a.md",
        "FOO=1 env rm .gitmem/entries/a.md",
        "xargs rm < list.txt .gitmem/entries/a.md",
        "perl -pi -e 's/a/b/' .gitmem/entries/a.md",
        "sed --in-place=.bak s/a/b/ .gitmem/entries/a.md",
        "cp -t .gitmem/entries a.md b.md",
        "cp notes.md .gitmem/candidates/",
        "install -m 644 a.md .gitmem/entries/a.md",
        "ln -s /tmp/x .gitmem/entries/link.md",
        "dd if=/dev/zero of=.gitmem/INDEX.md",
        "git rm -q .gitmem/entries/a.md",
        "git -C .gitmem mv entries/a.md entries/b.md",
        "git checkout HEAD~1 -- .gitmem/entries",
        "bash -c 'rm -rf .gitmem/entries'",
        'sh -c "echo x > docs/memory/INDEX.md"',
        "rm -rf .gitmem/*",
        "rm .gitmem/entr*/*.md",
        "chmod -R a-w .gitmem",
        "mv .gitmem old-memory",
        "patch .gitmem/INDEX.md < fix.diff",
        # behind the reserved words that open or continue a compound command
        "if [ -f x ]; then rm .gitmem/entries/a.md; fi",
        "if rm .gitmem/entries/a.md; then :; fi",
        "if false; then :; elif true; then :; else touch .gitmem/INDEX.md; fi",
        "for f in a b; do rm .gitmem/entries/a.md; done",
        "while true; do\n  mv .gitmem/entries/a.md /tmp\ndone",
        "until false; do rm .gitmem/candidates/c.md; done",
        "! rm .gitmem/entries/a.md",
        "{ rm .gitmem/entries/a.md; }",
        "true && { cd .gitmem; rm entries/a.md; }",
        # a copier's target folder, however GNU spells the option
        "cp --target-directory .gitmem/entries a.md",
        "cp -t.gitmem/entries a.md",
        "cp -vt .gitmem/entries a.md b.md",
        "ln -st .gitmem/entries /tmp/x.md",
        "rsync -t notes.md .gitmem/entries/x.md",  # rsync's -t keeps times: not a folder
        # behind a prefix that takes a value
        "timeout 5 rm .gitmem/entries/a.md",
        "timeout -s KILL 10s rm .gitmem/entries/a.md",
        "nice -n 5 rm .gitmem/entries/a.md",
        "sudo -u root rm .gitmem/entries/a.md",
        "sudo -uroot rm .gitmem/entries/a.md",
        "ls | xargs -n 1 rm .gitmem/entries/a.md",
        "pushd .gitmem && rm entries/a.md",
        # after a comment the shell reads no quote in (the splitter once did, and gave up)
        "# Let's tidy the memory up\nrm .gitmem/entries/a.md",
        "echo done # it's \"fine\nrm -rf .gitmem/candidates",
        "echo '#' > .gitmem/INDEX.md",
        "echo x > .gitmem/entries/a#1.md",
        # in a command substitution, which the shell runs in double quotes too
        "echo `rm -rf .gitmem/entries`",
        'echo "removed: $(rm -v .gitmem/entries/a.md)"',
        'cd .gitmem && echo "$(touch INDEX.md)"',
        'echo "$(echo "`rm .gitmem/candidates/c.md`")"',
        # in the folder a prefix moves the command to
        "env -C .gitmem rm -rf entries",
        "env --chdir=.gitmem/entries rm a.md",
        "env --chdir .gitmem rm -rf candidates",
        "sudo -D .gitmem touch INDEX.md",
        # and in a here-document whose delimiter is unquoted, where quotes are text
        "cat <<EOF > notes.txt\nremoved: $(rm -rf .gitmem/entries)\nEOF",
        "cat <<-END >> log.txt\n\tit's `touch .gitmem/INDEX.md`\n\tEND",
        # a command run from a string: a shell's -c in a cluster of options, eval, su, script
        "bash -lc 'rm .gitmem/entries/a.md'",
        "bash -xc 'touch .gitmem/INDEX.md'",
        "bash -o pipefail -c 'rm -rf .gitmem/candidates'",
        "eval 'rm .gitmem/entries/a.md'",
        "eval rm .gitmem/entries/a.md",
        "su -c 'rm .gitmem/entries/a.md' alice",
        "script -qc 'touch .gitmem/INDEX.md' /dev/null",
        "watch -n 5 rm .gitmem/entries/a.md",
        # a shell's positional parameters, given after its command string
        "sh -c 'rm \"$0\"' .gitmem/INDEX.md",
        "bash -c 'rm -f \"$@\"' _ notes.md .gitmem/entries/a.md",
        "bash -c 'touch ${1}' _ .gitmem/INDEX.md",
        # what watch and flock -c run through a shell
        "watch 'rm .gitmem/entries/a.md'",
        "flock -c 'touch .gitmem/INDEX.md' lock.file",
        "flock lock.file --command='rm -rf .gitmem/candidates'",
        # the folder the shell names for `~+` and `cd -`, and `cd` alone
        "rm -rf ~+/.gitmem/entries",
        "cd .gitmem && cd .. && cd - && rm INDEX.md",
        # git writing a whole tree from a revision over the memory's files
        "git checkout HEAD~1 .",
        "git checkout main -- .",
        "git restore --source=HEAD~3 .",
        "git restore -s main -- src/..",
        # an alias the script defines, expanded where it is used
        "alias r='rm -f'; r .gitmem/entries/a.md",
        'bash -ic "alias t=touch\nt .gitmem/INDEX.md"',
        # paths the shell spells for it: brace expansion, ANSI-C quoting
        "rm .gitmem/{INDEX,refused}.md",
        "touch .gitmem/entries/{a,b}.md",
        "rm -rf .gitmem/{entries,candidates}/{x,y}",
        "rm $'.gitmem/INDEX.md'",
        "rm $'\\x2egitmem/entries/a.md'",
        "touch $'.gitmem/INDEX\\056md'",
        # removing a folder that holds the memory folder removes the memory
        "rm -rf docs",
        "cd src && rm -rf ../docs",
        "mv docs documentation",
        "git rm -r -q .",
        # find's actions on what it finds below its starting points
        "find .gitmem/entries -name '*.md' -delete",
        "find .gitmem -exec rm {} \\;",
        "find src .gitmem/candidates -type f -execdir truncate -s0 {} +",
        # a command's output option, and a writer of its last argument
        "sort -o .gitmem/INDEX.md notes.md",
        "sort --output=.gitmem/refused.md notes.md",
        "curl -sSLo .gitmem/INDEX.md https://example.com/x",
        "wget -O .gitmem/entries/a.md https://example.com/x",
        "unzip -o notes.zip -d .gitmem/entries",
        "tar -xzf notes.tgz -C .gitmem/entries",
        "tar xf notes.tar --directory=.gitmem/candidates",
        "cat notes.md | sponge .gitmem/INDEX.md",
        "cd .gitmem/entries && tar xzf ../../notes.tgz",  # into the folder it runs in
        "cd .gitmem/candidates && unzip -o ../../notes.zip",
        # behind more prefixes
        "builtin cd .gitmem && rm INDEX.md",
        "coproc rm .gitmem/entries/a.md",
        "chronic rm .gitmem/entries/a.md",
        "busybox rm .gitmem/entries/a.md",
        "strace -f -o trace.txt rm .gitmem/entries/a.md",
        "flock -w 5 lock.file rm .gitmem/entries/a.md",
        # and a process substitution, which the shell runs as it runs `$(…)`
        "cat notes.md > >(tee .gitmem/INDEX.md)",
        "diff <(cat a) <(rm .gitmem/entries/a.md)",
    ],
)
def test_bash_writes_it_can_see_are_denied(guard: Guard, tmp_path: Path, command: str) -> None:
    assert _bash(guard, command, tmp_path), command


@pytest.mark.parametrize(
    "command",
    [
        "cat .gitmem/entries/a.md",
        "cp .gitmem/entries/a.md /tmp/copy.md",  # a copier only writes its destination
        "rsync -t .gitmem/entries/a.md /tmp/copy.md",
        "cp -S .bak -t /tmp .gitmem/entries/a.md",
        "grep -rl retry .gitmem/entries | sort > found.txt",
        "make 2>&1 | tee build.log",
        "find .gitmem/entries -name '*.md' -exec grep -l retry {} +",
        "rm -rf src/{a,b}",
        "echo ${HOME,,} > notes.txt",
        "rm -rf docs/guide src",  # docs/guide holds no memory
        "mv src/old.py src/new.py",
        "git checkout -- .",  # what the index holds: the memory as it was staged
        "git restore .",
        "git checkout HEAD~1 -- src",
        "find .gitmem -print -o -name x",
        "tar -czf memory.tgz -C .gitmem entries",  # -C read from when it creates
        "sort -o sorted.txt .gitmem/INDEX.md",
        "curl -o page.html https://example.com/.gitmem/INDEX.md",
        "rm -rf src/*",
        "cat <<EOF > notes.txt\nrm -rf .gitmem/entries\nEOF",  # a here-document is data
        "cat <<'EOF' > run.sh\necho $(rm -rf .gitmem/entries)\nEOF",  # quoted: not expanded
        "echo '.gitmem/entries/a.md' > notes.txt",
        "ls -la .gitmem && git status",
        "cp notes.txt .",
        "sed s/a/b/ .gitmem/entries/a.md",
        # what it cannot tell (documented): variables it does not set, substitutions,
        # programs that write
        'rm "$MEMORY_DIR/a.md"',
        "rm $(ls .gitmem/entries/*.md)",
        "python -c \"open('.gitmem/entries/a.md', 'w')\"",
        'echo "unbalanced > .gitmem/entries/a.md',
        "# rm -rf .gitmem/entries\nls",
        "make # > .gitmem/INDEX.md",
        "echo '$(rm -rf .gitmem/entries)' '`touch .gitmem/INDEX.md`'",  # single quotes: text
        "env -C /tmp rm -rf .gitmem",  # another folder's
    ],
)
def test_reads_and_what_it_cannot_tell_are_allowed(
    guard: Guard, tmp_path: Path, command: str
) -> None:
    assert not _bash(guard, command, tmp_path), command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("gitmem admit shop-method-20261205-retry", True),
        ("gitmem admit --push shop-method-20261205-retry", True),
        ("git fetch && gitmem refuse shop-method-20261205-retry --reason dup", True),
        ("bash -c 'gitmem admit shop-method-20261205-retry'", True),
        (".venv/bin/gitmem admit shop-method-20261205-retry", True),
        ("python3 -P -m gitmem refuse shop-method-20261205-retry --reason r", True),
        ("if true; then gitmem admit x; fi", True),
        ('echo "done: $(gitmem admit x)"', True),
        ("echo `gitmem refuse x --reason dup`", True),
        ("bash -lc 'gitmem admit x'", True),
        ("uvx gitmem admit x", True),
        ("alias ok='gitmem admit'; ok x", True),
        ("uvx --from gitmem gitmem refuse x --reason dup", True),
        ("uv run --with gitmem gitmem admit x", True),
        ("pipx run gitmem@1.2 admit x", True),
        ("uvx gitmem propose --type method --title T", False),
        ("eval gitmem admit x", True),
        ("cat <(gitmem refuse x --reason dup)", True),
        # what an agent does run: propose, read, and the audits' own admission
        ("gitmem propose --type method --title T --applies-when W --content C", False),
        ("gitmem show shop-method-20261205-retry && gitmem candidates", False),
        ("gitmem admit --auto", False),
        ("gitmem admit --help; gitmem refuse -h", False),
        ("echo 'run: gitmem admit shop-method-20261205-retry'", False),
        ("git log --grep 'gitmem admit'", False),
    ],
)
def test_admitting_or_refusing_is_left_to_a_person(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """The design admits a candidate by a person's review: an agent that ran `gitmem admit`
    itself (as memory_push's own `next` says a person will) merged unreviewed text into the
    memory with the person's name as its admitter."""
    decision = guard.judge_tool("Bash", {"command": command}, str(tmp_path))
    assert (decision is not None) == denied, command
    if decision is not None:
        assert "person" in decision.reason and "gitmem review" in decision.reason


@pytest.mark.parametrize(
    "command",
    [
        "find . -maxdepth 0 -exec gitmem admit abc \\;",
        "bash <<< 'gitmem admit abc'",
        "echo 'gitmem refuse abc --reason dup' | sh",
        "awk 'BEGIN { system(\"gitmem admit abc\") }'",
        'perl -e \'system("gitmem", "admit", "abc")\'',
        "vim -c '!gitmem admit abc' notes.txt",
        "cd src && find . -maxdepth 0 -execdir uvx gitmem admit abc \\;",
    ],
)
def test_a_decision_another_command_runs_is_left_to_a_person(
    guard: Guard, tmp_path: Path, command: str
) -> None:
    """`gitmem admit` run by find -exec, a shell reading its input, an awk or Perl
    program's system or an editor's `:!` was allowed: only a command the script runs
    itself, or in `bash -c`, was read for decisions."""
    denied = guard.judge_tool("Bash", {"command": command}, str(tmp_path))
    assert denied is not None, command
    assert "person's decision" in denied.reason or "a person" in denied.reason, denied.reason
    assert denied.reason.startswith("`gitmem "), denied.reason


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("source /dev/stdin <<< 'rm .gitmem/INDEX.md'", True),
        ("echo 'rm -rf .gitmem/entries' | . /dev/stdin", True),
        ("bash /dev/stdin <<'EOF'\ntouch .gitmem/INDEX.md\nEOF", True),
        ("sh /dev/fd/0 <<< 'rm .gitmem/refused.md'", True),
        ("source /dev/stdin <<< 'ls -la'", False),
        ("source env.sh <<< 'rm .gitmem/INDEX.md'", False),  # its input is the script's data
        ("source .venv/bin/activate && pytest -q", False),
    ],
)
def test_a_script_sourced_or_run_from_the_standard_input_is_judged(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """`source /dev/stdin <<< CMD` and `bash /dev/stdin <<< CMD` run CMD as `bash <<< CMD`
    does; the guard took /dev/stdin for a script file it does not read."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("git rebase --exec 'rm .gitmem/INDEX.md' HEAD~2", True),
        ("git rebase -x 'touch .gitmem/entries/x.md' main", True),
        ("git bisect run rm -rf .gitmem/entries", True),
        ("git submodule foreach 'rm -rf .gitmem'", True),
        ("git -c 'alias.tidy=!rm .gitmem/INDEX.md' tidy", True),
        ("git -c 'alias.ok=!gitmem admit' ok abc", True),  # a person's decision
        ("git -C src rebase -x 'rm ../.gitmem/INDEX.md' HEAD~1", True),
        ("git rebase --exec 'make test' HEAD~3", False),
        ("git bisect run pytest -q tests", False),
        ("git -c alias.st=status st", False),
        ("git -c 'alias.hi=!echo hi' hi", False),
    ],
)
def test_what_git_runs_through_a_shell_is_judged(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """git runs the commands of `rebase --exec`, `bisect run`, `submodule foreach` and of a
    shell alias set with -c, as `find -exec` and `bash -c` run theirs; the guard read none
    of them."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("rm ${X:-.gitmem}/INDEX.md", True),
        ("rm -rf ${X-.gitmem/entries}", True),
        ("echo x > ${X:=.gitmem}/INDEX.md", True),
        ("rm ${X:+.gitmem/refused.md}", True),
        ("${RM:-rm} .gitmem/INDEX.md", True),
        ("rm ${X:-${Y:-.gitmem}}/INDEX.md", True),
        ("X=.gitmem; rm ${X:-src}/INDEX.md", True),  # X's value, as without the word
        ("rm ${X:-src}/a.py", False),
        ("echo ${NAME:-world} > notes.txt", False),
    ],
)
def test_the_word_a_variable_s_use_spells_is_judged(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """`${X:-.gitmem}` is `.gitmem` wherever X is unset, and the guard, which knows no X
    the script did not set, read it as a name of its own and let the index go."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("printf .gitmem/INDEX.md | xargs rm", True),
        ("printf '.gitmem/entries/a.md\\n' | xargs -I{} rm {}", True),
        ("printf '%s/INDEX.md\\0' .gitmem | xargs -0 rm", True),
        ("printf '%s %s\\n' src/a.py .gitmem/refused.md | xargs rm", True),
        ("printf '%s\\n' .gitmem/INDEX.md | xargs rm", True),
        ("printf src/a.py | xargs rm", False),
        ("printf '%s\\n' src/a.py src/b.py | xargs rm", False),
    ],
)
def test_what_printf_prints_to_xargs_is_judged(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """printf's format is printed, not only its arguments: `printf .gitmem/INDEX.md | xargs
    rm` removed the index while the guard took the format for no name."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("ash -c 'rm .gitmem/INDEX.md'", True),
        ("busybox ash -c 'rm -rf .gitmem/entries'", True),
        ("mksh -c 'touch .gitmem/INDEX.md'", True),
        ("fish -c 'rm .gitmem/INDEX.md'", True),
        ("tcsh -c 'rm .gitmem/refused.md'", True),
        ("fish <<< 'rm .gitmem/INDEX.md'", True),
        ("toybox rm .gitmem/entries/a.md", True),
        ("fish -c 'rm src/a.py'", False),
        ("toybox cat .gitmem/INDEX.md", False),
    ],
)
def test_every_shell_and_multicall_binary_is_read(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """The string `ash -c`, `fish -c` or `tcsh -c` runs, and what toybox (busybox's twin)
    runs, went unread: the guard knew bash, sh, zsh, dash and ksh only, and busybox."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("pushd -n src; rm .gitmem/INDEX.md", True),
        ("pushd src; popd -n; rm ../.gitmem/INDEX.md", True),
        ("pushd -n .gitmem; rm INDEX.md", False),  # INDEX.md where it runs: the root's
    ],
)
def test_pushd_and_popd_n_leave_the_folder_as_it_was(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """`pushd -n DIR` and `popd -n` change the folder stack, not the folder the shell is
    in; the guard moved to DIR and judged `rm .gitmem/INDEX.md` after it as a file there."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ('rm .git$""mem/INDEX.md', True),
        ('rm $".gitmem/entries/a.md"', True),
        ('cat notes.txt > $".gitmem"/refused.md', True),
        ('echo "\\$" > .gitmem/INDEX.md', True),  # an escaped `$`, then a quote
        ('echo $"done" > notes.txt', False),
        ('echo "costs 5$" > notes.txt', False),
    ],
)
def test_a_locale_string_is_the_text_it_quotes(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """`$"…"` is the locale's translation of its text, the text itself where no catalog
    has one; the splitter read its `$` as a letter of the word, so `rm .git$""mem/INDEX.md`
    removed the index while the guard judged a folder `.git$mem`."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("python -Im gitmem admit abc", True),
        ("python3 -mgitmem refuse abc", True),
        ("python -X dev -Bm gitmem admit abc", True),
        ("python -W ignore -m gitmem admit abc", True),
        ("python -Im gitmem propose --title x", False),
        ("python -c 'print(1)' -m gitmem admit abc", False),  # the -m is the program's
        ("python tool.py -m gitmem admit abc", False),  # the script's own arguments
    ],
)
def test_python_s_m_is_read_as_python_reads_it(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """`python -m gitmem admit` was a decision, but `python -Im gitmem admit` and `python
    -mgitmem admit` (the -m in a cluster of flags, the module in its word) were not: the
    guard looked for a word `-m` only."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("function tidy { rm .gitmem/INDEX.md; }; tidy", True),
        ("unbuffer rm .gitmem/INDEX.md", True),
        ("taskset 0x1 rm .gitmem/INDEX.md", True),
        ("taskset -c 0 rm .gitmem/INDEX.md", True),
        ("chrt -f 10 rm .gitmem/INDEX.md", True),
        ("fakeroot rm .gitmem/INDEX.md", True),
        ("nsenter -t 1 -m rm .gitmem/INDEX.md", True),
        ("runuser -u alice -- rm .gitmem/INDEX.md", True),
        ("systemd-run --user --unit tidy rm .gitmem/INDEX.md", True),
        ("xvfb-run -a rm .gitmem/INDEX.md", True),
        ("valgrind --tool=memcheck rm .gitmem/INDEX.md", True),
        ("uv run rm .gitmem/INDEX.md", True),
        ("uv run --with rich rm .gitmem/INDEX.md", True),
        ("poetry run rm .gitmem/INDEX.md", True),
        ("uv run pytest -q", False),
        ("taskset -c 0 make test", False),
        ("npm run build", False),
    ],
)
def test_more_prefixes_are_skipped_to_reach_the_command(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """`uv run rm …`, `taskset 1 rm …`, `fakeroot rm …` and a body opened by `function
    NAME` ran the command after them unjudged: the guard took the prefix for the command."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("x=.gitmem; rm $x/INDEX.md", True),
        ('D=.gitmem/entries; rm "$D/a.md"', True),
        ('export D=.gitmem; rm -rf "${D}"', True),
        ("d=.gitmem; f=$d/INDEX.md; echo x > $f", True),
        ("for f in .gitmem/entries/*; do rm $f; done", True),
        ('for f in notes.md .gitmem/INDEX.md; do sed -i s/a/b/ "$f"; done', True),
        ("if true; then x=.gitmem; else x=src; fi; rm -rf $x", True),  # either, judged
        ("x=src; rm -rf $x", False),
        ('for f in src/*.py; do sed -i s/a/b/ "$f"; done', False),
        ("for i in 1 2 3; do echo $i > out$i.txt; done", False),
        ("x=$(pwd); rm $x/a", False),  # its output: unknown, as before
    ],
)
def test_variables_the_command_sets_are_followed(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """`x=.gitmem; rm $x/INDEX.md` and `for f in .gitmem/entries/*; do rm $f; done` removed
    entries while the guard read `$x` and `$f` as names of their own."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("echo x > $PWD/.gitmem/INDEX.md", True),
        ("rm -rf ${PWD}/.gitmem/entries", True),
        ('echo x > "$(pwd)/.gitmem/INDEX.md"', True),
        ("rm `pwd -P`/.gitmem/entries/a.md", True),
        ("echo x > $(pwd)/.gitmem/INDEX.md", True),
        ("x=$(pwd); rm -rf $x/.gitmem", True),
        ("$(pwd)/.venv/bin/gitmem admit abc", True),
        ("cd .gitmem && rm $PWD/INDEX.md", True),  # cd changes it
        ("cd src && rm -rf $PWD/../.gitmem", True),
        ("rm $HOME/.gitmem/INDEX.md", True),  # HOME is the repository here: see below
        ("echo x > $PWD/src/a.py", False),
        ('cd src && rm "$(pwd)"/a.py', False),
        ("rm $(pwd)/src/*.pyc", False),
    ],
)
def test_folders_the_shell_sets_itself_are_followed(
    guard: Guard, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, denied: bool
) -> None:
    """`$PWD`, `$(pwd)` and `$HOME` name folders the guard knows (the one a command runs in,
    home, as `~+` and `~` do), yet it read them as variables it could not know and let
    `echo x > $PWD/.gitmem/INDEX.md` write the index."""
    monkeypatch.setenv("HOME", str(tmp_path))
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("find . -maxdepth 0 -fprint .gitmem/INDEX.md", True),
        ("find src -fprint0 .gitmem/entries/list.md", True),
        ("find src -fprintf .gitmem/INDEX.md '%p\\n'", True),
        ("find src -fls .gitmem/refused.md", True),
        ("find src -fprint found.txt", False),
        ("find .gitmem -name '*.md' -fprint found.txt", False),
    ],
)
def test_what_find_prints_to_a_file_is_judged(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """find's -fprint, -fprint0, -fprintf and -fls write the file they name: `find .
    -fprint .gitmem/INDEX.md` truncated INDEX.md while the guard allowed it."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "folder", "denied"),
    [
        ("sed '1e rm .gitmem/INDEX.md' notes.txt", "", True),
        ("sed '$e touch .gitmem/INDEX.md' notes.txt", "", True),
        ("sed 's/a/b/;e rm -rf .gitmem/entries' notes.txt", "", True),
        ("sed 's/.*/rm &/e' notes.txt", "", True),  # runs what it makes: any name
        ("sed -n '/x/e' notes.txt", "", True),
        ("sed 's/.*/rm &/e' notes.txt", "src", False),
        ("sed '1e date' notes.txt", "", False),
        ("sed -n 's/e/E/gp' notes.txt", "", False),
        ("sed -E 's/([a-z]+)e/\\1/g' notes.txt", "", False),
    ],
)
def test_what_sed_s_e_command_runs_is_judged(
    guard: Guard, tmp_path: Path, command: str, folder: str, denied: bool
) -> None:
    """GNU sed's `e COMMAND` and the `e` flag of `s///` run a shell command: `sed '1e rm
    .gitmem/INDEX.md' notes.txt` removed INDEX.md while the guard allowed it."""
    denied_now = guard.judge_tool("Bash", {"command": command}, str(tmp_path / folder))
    assert (denied_now is not None) == denied, command


def test_file_tools_and_paths(guard: Guard, tmp_path: Path) -> None:
    src = str(tmp_path / "src")
    for path in ("../.gitmem/entries/x.md", "../DOCS/Memory/Candidates/c.md", "../.gitmem",
                 f"{tmp_path}/docs/memory/refused.md", "../.gitmem/entries/*.md",
                 "../.gitmem/Allowed.md"):  # fmt: skip
        assert guard.judge(path, src) is not None, path
    for path in ("../.gitmem/notes.md", "../docs/memory.md", "../docs/INDEX.md", "x.py",
                 "/etc/passwd", ""):  # fmt: skip
        assert guard.judge(path, src) is None, path
    assert guard.judge_tool("Write", {"file_path": 3}, src) is None
    assert guard.judge_tool("Read", {"file_path": "../.gitmem/INDEX.md"}, src) is None
    assert guard.judge_tool("Bash", "rm -rf .gitmem", src) is None
    denied = guard.judge_tool("NotebookEdit", {"notebook_path": "../.gitmem/entries/n.ipynb"}, src)
    assert denied is not None and denied.what == ".gitmem/entries/"
    assert "memory_push" in denied.reason


@pytest.mark.parametrize(
    ("command", "decisions"),
    [
        # the shell ends the comment at the line break and runs the next line
        ("#\\\nrm -rf .gitmem/entries", {"True\n"}),
        # the comment takes the opening quote: the shell cannot parse the rest
        ('#"a\nb"\nrm .gitmem/entries/a.md', {"True\n", "False\n"}),
    ],
)
def test_a_comment_whose_first_word_holds_a_line_break_is_decided(
    guard: Guard, command: str, decisions: set[str]
) -> None:
    """A comment's first word holding a line break (an escaped one, a quoted one) kept the
    splitter on that word for ever: the hook ran out of time, and Claude Code let the
    command through."""
    judge = (
        "import sys; from gitmem.agents.guard import Guard; "
        "print(Guard(sys.argv[1], ['.gitmem']).judge_tool('Bash', {'command': sys.argv[2]}, "
        "sys.argv[1]) is not None)"
    )
    done = subprocess.run(
        [sys.executable, "-c", judge, guard.root, command],
        capture_output=True,
        text=True,
        timeout=10,
        check=True,
    )
    assert done.stdout in decisions, command


@pytest.mark.parametrize("command", ["cd ~\x00x; rm a", "pushd ~\x00x", "git -C ~\x00x rm a"])
def test_a_folder_holding_nul_is_decided_not_failed(
    guard: Guard, tmp_path: Path, command: str
) -> None:
    """`~` expansion looked the user `\\x00x` up and raised: the hook failed, and a failing
    hook lets the command through. No system call takes a NUL: nothing is written there."""
    assert not _bash(guard, command, tmp_path)


def test_a_hard_link_to_a_memory_file_is_the_memory_file(guard: Guard, tmp_path: Path) -> None:
    """`ln .gitmem/entries/a.md notes.md` writes nothing, but writing notes.md then writes the
    entry: a hard link shares the file, where a symbolic link only points at it."""
    entry = tmp_path / ".gitmem" / "entries" / "a.md"
    entry.write_text("the entry\n")
    os.link(entry, tmp_path / "notes.md")
    os.link(entry, tmp_path.parent / f"{tmp_path.name}-outside.md")
    (tmp_path / "other.md").write_text("not linked\n")
    for path in ("notes.md", f"../{tmp_path.name}-outside.md"):
        denied = guard.judge_tool("Write", {"file_path": path}, str(tmp_path))
        assert denied is not None and ".gitmem/entries/" in denied.reason, path
    assert _bash(guard, "echo x >> notes.md", tmp_path)
    assert guard.judge_tool("Write", {"file_path": "other.md"}, str(tmp_path)) is None


def test_the_memory_s_own_name_is_known_by_its_folder_s_identity(
    guard: Guard, tmp_path: Path
) -> None:
    """Removing a second hard link of an entry leaves the entry; removing the entry's own name
    removes it, and a bind mount spells that name with no path saying so. The folder's
    identity tells them apart (a symbolic link to the folder, which judge resolves before
    asking, stands in for the mount here)."""
    entry = tmp_path / ".gitmem" / "entries" / "a.md"
    entry.write_text("the entry\n")
    os.link(entry, tmp_path / "second.md")
    (tmp_path / "mounted").symlink_to(entry.parent)
    assert guard._own_name(str(tmp_path / "mounted" / "a.md")) == "a hard link to .gitmem/entries/"
    assert guard._own_name(str(tmp_path / "second.md")) == ""
    assert guard.judge("second.md", str(tmp_path), removed=True) is None
    assert guard.judge("second.md", str(tmp_path)) is not None


def test_a_glob_counts_with_the_shells_leading_dot_rule(tmp_path: Path) -> None:
    only_dotted = Guard(str(tmp_path), [".gitmem"])
    assert not _bash(only_dotted, "rm -rf ./*", tmp_path)  # `*` skips the leading dot
    assert _bash(only_dotted, "rm -rf ./.*", tmp_path)
    named = Guard(str(tmp_path), ["memory"])
    assert _bash(named, "rm -rf ./*", tmp_path)  # here `*` matches the memory folder


def test_bash_targets_follow_cd_and_nested_shells(tmp_path: Path) -> None:
    targets = list(bash_targets("cd a && (echo x > b.txt); bash -c 'cd c; rm d'", str(tmp_path)))
    assert [(t, Path(w).relative_to(tmp_path).as_posix(), r) for t, w, r in targets] == [
        ("b.txt", "a", False),
        ("d", "a/c", True),  # a name removed, not a file written
    ]


def test_a_command_too_long_to_read_in_time_is_denied_when_it_names_the_memory(
    guard: Guard, tmp_path: Path
) -> None:
    """Claude Code lets a call through when its hook times out, and splitting one word of a
    million characters took shlex 19 s: past MAX_JUDGED characters (here-document bodies
    aside) the guard decides by whether the command names a memory folder."""
    word = "a" * 1_000_000
    for command in (
        f"echo {word} > .gitmem/INDEX.md",
        f"echo {word} > .GIT''MEM/INDEX.md",  # quotes and letter case do not hide the name
        f'cd docs && echo {word} > "mem"o\\ry/INDEX.md',
        f"cat .gitmem/INDEX.md; echo {word}",  # a read too: unread, it cannot be told apart
    ):
        denied = guard.judge_tool("Bash", {"command": command}, str(tmp_path))
        assert denied is not None, command[:40]
        assert denied.reason.startswith(f"this command is {len(command):,} characters long")
        assert f"more than the {MAX_JUDGED:,} the memory guard reads" in denied.reason
        assert "split it into shorter commands" in denied.reason
        assert "memory_push" in denied.reason
    assert not _bash(guard, f"echo {word} > notes.txt", tmp_path)
    # the bound is on what the guard reads: a here-document body is data, however long
    body = "a line about .gitmem/INDEX.md\n" * 40_000
    assert not _bash(guard, f"cat > notes.md <<'EOF'\n{body}EOF\necho done", tmp_path)
    denied = guard.judge_tool(
        "Bash", {"command": f"cat > notes.md <<EOF\n{body}EOF\nrm .gitmem/INDEX.md"}, str(tmp_path)
    )
    assert denied is not None and denied.what == ".gitmem/INDEX.md"
    # at the bound, it is still read word by word
    at_bound = "echo " + "a" * (MAX_JUDGED - 24) + " > .gitmem/INDEX.md"
    assert len(at_bound) == MAX_JUDGED
    denied = guard.judge_tool("Bash", {"command": at_bound}, str(tmp_path))
    assert denied is not None and denied.what == ".gitmem/INDEX.md"


def test_a_path_too_long_to_resolve_in_time_is_denied_when_it_names_the_memory(
    guard: Guard, tmp_path: Path
) -> None:
    """os.path.realpath took 32 s on a million characters of `a/`."""
    deep = "a/" * 500_000
    denied = guard.judge_tool("Write", {"file_path": f"{deep}../.gitmem/x.md"}, str(tmp_path))
    assert denied is not None
    assert denied.reason.startswith(f"this path is {len(deep) + 15:,} characters long, more")
    assert "split it" not in denied.reason
    assert guard.judge_tool("Write", {"file_path": f"{deep}x.md"}, str(tmp_path)) is None


_WORDS = [">", ">>", "2>", "&>", "|", "&&", ";", "\n", "'", '"', "\\", "$(", ")", "`", "<<", "EOF",
          "cat", "tee", "-a", "sed", "-i", "cp", "mv", "rm", "-rf", "cd", "..", ".gitmem",
          ".gitmem/entries/x.md", "/", "*", "?", "[", "]", "~", "$HOME", "=", "x", " ", "\t",
          "\x00", "é", "\u202e", "ln", "-s", "dd", "of=", "touch", "bash", "-c", "find",
          "-exec", "{}", "\\;", "#"]  # fmt: skip


@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(st.sampled_from(_WORDS), max_size=12).map("".join), st.sampled_from(["Bash", "Write"])
)
def test_any_text_gets_a_decision_never_an_error(guard: Guard, text: str, tool: str) -> None:
    """A hook that fails lets the write through, so the guard must decide every text; a path
    holding NUL, which no system call takes, included."""
    tool_input = {"command": text} if tool == "Bash" else {"file_path": text}
    guard.judge_tool(tool, tool_input, str(Path(guard.root) / "src"))


@pytest.mark.parametrize(
    "command",
    [
        # git's own spellings of a path: `:/` and `:(top)` name it from the top of the work tree
        "git checkout HEAD~1 -- :/.gitmem",
        "git checkout HEAD~1 -- ':(top).gitmem/INDEX.md'",
        "cd src && git checkout HEAD~1 -- :/",
        "cd src && git restore -s HEAD~1 -W -- ':/:docs/memory/entries'",
        "git rm -q ':(top,literal).gitmem/refused.md'",
        # and git's wildcards match across `/` and a leading dot, as the shell's do not
        "git checkout HEAD~1 -- '*INDEX.md'",
        "git restore --source=HEAD~1 -- '*/entries/*'",
        "git checkout HEAD~1 -- '.gitm?m'",
        "git rm -r --cached '*'",
        "git checkout -- 'docs/*/entries/a.md'",
        "cd .gitmem && git checkout HEAD~1 -- '*.md'",
        # git takes `..` textually, a wildcard's part with it
        "git checkout HEAD~1 -- '*/../.gitmem/INDEX.md'",
        "git restore -s HEAD~1 -- 'src/x*/../../.gitmem/entries'",
    ],
)
def test_git_pathspecs_are_read_as_git_reads_them(
    guard: Guard, tmp_path: Path, command: str
) -> None:
    """A quoted pathspec reaches git as written, and git reads its magic and its wildcards:
    the guard judged `:/.gitmem` as a folder named `:` and `'*INDEX.md'` as a shell glob of
    one part, and let both replace the memory's files from an old revision."""
    assert _bash(guard, command, tmp_path), command


@pytest.mark.parametrize(
    "command",
    [
        "git rm -q --cached '*.pyc'",
        "git checkout HEAD~1 -- 'src/*.py'",
        "git restore -s HEAD~1 -- ':(exclude).gitmem' src",
        "git checkout HEAD~1 -- ':!*INDEX.md' src/pay.py",
        "cd src && git checkout HEAD~1 -- ':/src/*'",
        "git rm -q ':(literal)*INDEX.md'",  # literal: a file named so, at the top
    ],
)
def test_git_pathspecs_that_reach_no_memory_file_are_allowed(
    guard: Guard, tmp_path: Path, command: str
) -> None:
    assert not _bash(guard, command, tmp_path), command


def test_a_git_pattern_naming_a_file_the_memory_holds_now_is_denied(
    guard: Guard, tmp_path: Path
) -> None:
    """Entries are Markdown, but a pattern that names a file entries/ holds now, of any kind,
    writes it too."""
    (tmp_path / ".gitmem" / "entries" / "decision").mkdir()
    (tmp_path / ".gitmem" / "entries" / "decision" / "notes.txt").write_text("x\n")
    assert _bash(guard, "git checkout HEAD~1 -- '*notes.txt'", tmp_path)
    assert _bash(guard, "git checkout HEAD~1 -- '*/decision'", tmp_path)  # its folder
    assert not _bash(guard, "git checkout HEAD~1 -- '*other.txt'", tmp_path)


@pytest.mark.parametrize(
    ("configured", "spelled"),
    [("m\u00e9moire", "me\u0301moire"), ("me\u0301moire", "m\u00e9moire")],
)
def test_a_memory_folder_is_known_in_either_unicode_normal_form(
    tmp_path: Path, configured: str, spelled: str
) -> None:
    """macOS's file systems open a name in either normal form (`é` as one code point or as
    `e` and a combining accent) as the same folder, as they open it in any letter case: the
    guard compared code points and let the other form write the memory."""
    (tmp_path / configured / "entries").mkdir(parents=True)
    guard = Guard(str(tmp_path), [configured])
    assert guard.judge_tool("Write", {"file_path": f"{spelled}/entries/a.md"}, str(tmp_path))
    assert _bash(guard, f"rm -rf {spelled.upper()}/ENTRIES", tmp_path)
    assert _bash(guard, f"rm -rf {spelled}/entr*", tmp_path)
    assert _bash(guard, f"git checkout HEAD~1 -- '{spelled}/*'", tmp_path)


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("ln -s .gitmem/entries e && echo x > e/a.md", True),
        ("ln -sfn .gitmem notes; touch notes/INDEX.md", True),
        ("ln -s ../.gitmem/INDEX.md src/index.md", True),  # relative to the link's folder
        ("ln -s ../docs/memory/candidates src", True),  # into an existing folder
        ("ln .gitmem/entries/a.md copy.md; echo x >> copy.md", True),
        ("ln -t src .gitmem/refused.md", True),
        ("ln -s src/a.py b.py", False),
        ("ln -sf ../src/a.py docs/a.py", False),
    ],
)
def test_a_link_to_the_memory_is_a_way_to_write_it(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """A link made in the command that then writes through it was judged before it existed:
    `ln -s .gitmem/entries e && echo x > e/a.md` wrote an entry. What ln links to is judged
    as written, from the folder it runs in and from the link's own folder."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ('cp -rs "$PWD/.gitmem" m && echo x > m/entries/a.md', True),  # PWD: the folder it runs in
        ("cp -al .gitmem m; echo x >> m/INDEX.md", True),
        ("cp --link .gitmem/INDEX.md i.md; echo x >> i.md", True),
        ("cp -r --symbolic-link .gitmem/entries e", True),
        ("cp -vl .gitmem/refused.md r.md", True),
        ("cp -S .l .gitmem/INDEX.md copy.md", False),  # -S takes `.l`: a plain copy
        ("cp -a .gitmem backup", False),  # copies are the reader's own files
    ],
)
def test_cp_making_links_is_judged_as_ln_is(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """`cp -l` and `cp -s` make hard and symbolic links, not copies: what they link to is a
    way to write the memory, as with ln."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        # compressors replace the files they are given (or write beside them)
        ("gzip .gitmem/INDEX.md", True),
        ("xz -k .gitmem/entries/a.md", True),
        ("bzip2 -9 .gitmem/refused.md", True),
        ("zstd --rm .gitmem/entries/a.md", True),
        ("gzip -c .gitmem/INDEX.md > index.gz", False),  # to the standard output
        ("xz --stdout .gitmem/INDEX.md > index.xz", False),
        # other removers and in-place editors
        ("trash-put .gitmem/entries/a.md", True),
        ("trash .gitmem", True),
        ("srm -r .gitmem/candidates", True),
        ("dos2unix .gitmem/INDEX.md", True),
        ("ruby -i -pe 'gsub(/a/, %q(b))' .gitmem/INDEX.md", True),
        ("gawk -i inplace '{print}' .gitmem/INDEX.md", True),
        ("awk --include=inplace '{print}' .gitmem/refused.md", True),
        ("awk -i lib.awk '{print}' .gitmem/INDEX.md", False),  # a library, read
        ("ruby -e 'puts 1' .gitmem/INDEX.md", False),
    ],
)
def test_more_commands_that_write_the_files_they_are_given(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """Other tools' names for the writes the guard knows: a compressor replaces a file with
    its archive, trash and srm remove it, dos2unix, `ruby -i` and `gawk -i inplace` edit it
    in place, as `sed -i` and `perl -i` do."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    "command",
    [
        "git --work-tree . checkout HEAD~1 -- .gitmem",
        "git --git-dir .git rm -q .gitmem/INDEX.md",
        "git --namespace x rm .gitmem/INDEX.md",
        "git --config-env core.x=HOME rm -r .gitmem/entries",
        "git --super-prefix x/ restore -s HEAD~1 .gitmem",
    ],
)
def test_git_s_own_options_that_take_a_value_are_skipped_with_it(
    guard: Guard, tmp_path: Path, command: str
) -> None:
    """git takes `--git-dir`, `--work-tree`, `--namespace`, `--super-prefix` and
    `--config-env` with their value in the next word too: the guard took that value for
    the subcommand (`.`, a folder), saw no writer, and allowed the command."""
    assert _bash(guard, command, tmp_path), command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("tar -cf .gitmem/INDEX.md src", True),  # an archive written over the index
        ("tar czf .gitmem/entries/a.md src", True),
        ("tar --create --file=.gitmem/refused.md src", True),
        ("tar -rf .gitmem/INDEX.md notes.txt", True),  # appended to
        ("tar -cf backup.tar .gitmem", False),  # the memory read into an archive
        ("tar -tf .gitmem/INDEX.md", False),  # listed
        ("mkfifo .gitmem/entries/pipe", True),
        ("mknod .gitmem/candidates/dev p", True),
        ("mktemp -p .gitmem/entries", True),
        ("mktemp .gitmem/candidates/c.XXXXXX", True),
        ("mktemp -d", False),
        ("zip .gitmem/INDEX.md src/a.py", True),
        ("zip -r backup.zip .gitmem", False),
        ("git archive -o .gitmem/INDEX.md HEAD", True),
        ("git archive --output=.gitmem/entries/a.md HEAD", True),
        ("git format-patch -o .gitmem/entries HEAD~1", True),
        ("git archive -o release.tgz HEAD", False),
    ],
)
def test_archivers_and_file_makers_write_what_they_name(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """`tar -cf FILE`, `zip ARCHIVE`, `git archive -o FILE` and `git format-patch -o DIR`
    write the file or folder they name, and mkfifo, mknod and mktemp make one there: the
    guard knew `tar -C` when extracting and `sort -o`, not these."""
    assert _bash(guard, command, tmp_path) == denied, command


def _committed(root: Path) -> list[str]:
    """git at root, a repository made there holding a committed entry and a source file."""
    git = ["git", "-C", str(root), "-c", "user.name=A", "-c", "user.email=a@example.com"]
    root.mkdir(parents=True, exist_ok=True)
    subprocess.run([*git, "init", "-q"], check=True)
    (root / ".gitmem" / "entries").mkdir(parents=True, exist_ok=True)
    (root / ".gitmem" / "entries" / "a.md").write_text("a\n")
    (root / "src").mkdir(exist_ok=True)
    (root / "src" / "f.py").write_text("f\n")
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    return git


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("git sparse-checkout set src", True),
        ("git sparse-checkout set --no-cone '/src/'", True),
        ("git sparse-checkout add docs", True),
        ("git sparse-checkout reapply", True),
        ("git sparse-checkout disable", True),
        ("git sparse-checkout init", True),
        ("git sparse-checkout init --cone", True),
        ("cd src && git sparse-checkout set .", True),  # the whole work tree, from its top
        ("git -C src sparse-checkout set .", True),
        ("git sparse-checkout list", False),
        ("git sparse-checkout check-rules < paths.txt", False),
    ],
)
def test_git_sparse_checkout_rewrites_the_work_tree(
    tmp_path: Path, command: str, denied: bool
) -> None:
    """`git sparse-checkout set src` removed the memory folder from the work tree, and
    `init` kept only the top's files, with no path the guard read: it knew no
    sparse-checkout. All but list and check-rules rewrite the whole work tree."""
    _committed(tmp_path)
    guard = Guard(str(tmp_path), [".gitmem"])
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("git switch --orphan fresh", True),
        ("cd src && git switch --orphan=fresh", True),
        ("git checkout --orphan fresh", False),  # keeps the index and the work tree
        ("git switch -c fresh", False),
    ],
)
def test_git_switch_orphan_removes_the_work_tree_s_files(
    tmp_path: Path, command: str, denied: bool
) -> None:
    """`git switch --orphan` removes every tracked file, the memory's among them, and was
    allowed as a branch switch that keeps the work tree."""
    git = _committed(tmp_path)
    guard = Guard(str(tmp_path), [".gitmem"])
    assert _bash(guard, command, tmp_path) == denied, command
    if command == "git switch --orphan fresh":  # what git does
        subprocess.run([*git, "switch", "-q", "--orphan", "fresh"], check=True)
        assert not (tmp_path / ".gitmem" / "entries" / "a.md").exists()


@pytest.mark.parametrize("command", [["set", "src"], ["init"]])
def test_git_sparse_checkout_does_remove_the_memory(tmp_path: Path, command: list[str]) -> None:
    """What the guard denies above is what git does: the entry leaves the work tree, while
    list changes nothing."""
    git = _committed(tmp_path)
    subprocess.run([*git, "sparse-checkout", "list"], check=False, capture_output=True)
    assert (tmp_path / ".gitmem" / "entries" / "a.md").exists()
    subprocess.run([*git, "sparse-checkout", *command], check=True, capture_output=True)
    assert not (tmp_path / ".gitmem" / "entries" / "a.md").exists()


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        # the whole work tree written from a commit over what it holds
        ("git reset --hard", True),
        ("git reset --hard HEAD~3", True),
        ("cd src && git reset -q --hard origin/main", True),  # from the top, wherever it runs
        ("git checkout -f", True),
        ("git checkout --force main", True),
        ("git switch -f main", True),
        ("git switch --discard-changes main", True),
        ("git stash apply 1a2b3c4", True),  # a commit, not an entry of the stash
        ("git stash branch fix 1a2b3c4", True),
        # the untracked files of the folder git clean is given, or runs in
        ("git clean -f", True),
        ("git clean -fd", True),
        ("git clean -fdx", True),
        ("git clean -fd .gitmem", True),
        ("cd .gitmem/entries && git clean -f", True),
        ("git clean -fd -enx", True),  # -e takes `nx`: not a dry run
        ("git clean -fd -- -n .", True),  # a path named -n, and the folder it runs in
        # what moves only the index or HEAD, keeps the work tree's changes, or only reads
        ("git reset", False),
        ("git reset --soft HEAD~1", False),
        ("git reset --mixed HEAD~1", False),
        ("git reset HEAD~1 -- .gitmem/entries/a.md", False),  # the index only
        ("git reset --keep HEAD~1", False),
        ("git checkout main", False),
        ("git switch -c feature", False),
        ("git checkout -f -- src", False),  # from the index, paths outside the memory
        ("git stash", False),
        ("git stash push -m wip -- src", False),
        ("git stash list", False),
        ("git stash show -p stash@{1}", False),
        ("git stash pop", False),
        ("git stash apply --index stash@{2}", False),
        ("git stash pop 1", False),
        ("git clean -n", False),
        ("git clean -fdn", False),
        ("git clean --dry-run -fdx", False),
        ("git clean -fdx src", False),
        ("cd src && git clean -fdx", False),
    ],
)
def test_git_replacing_or_cleaning_the_work_tree_reaches_the_memory(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """`git reset --hard REV` wrote REV's memory over the work tree's, and `git clean -fdx`
    removed the memory's untracked files, with no path the guard read: it judged only the
    paths of `git rm|mv|restore|checkout|apply`. A command that discards what the work tree
    holds now replaces it from its top (what git clean removes: the folder it runs in)."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("git read-tree -u -m HEAD~1", True),
        ("git read-tree -m -u HEAD HEAD~1", True),
        ("git read-tree --reset -u HEAD~1", True),
        ("git read-tree -mu HEAD~1", True),
        ("cd src && git read-tree --reset -u origin/main", True),  # from the top
        ("git read-tree -u --prefix=.gitmem/ other/memory", True),
        ("git read-tree -u --prefix=.gitmem/entries/ other", True),
        ("git read-tree -u --prefix=vendor/lib/ lib/main", False),
        ("git read-tree -m HEAD~1", False),  # the index only
        ("git read-tree --reset HEAD", False),
        ("git read-tree -n -u -m HEAD~1", False),
        ("git read-tree --dry-run -u --reset HEAD~1", False),
    ],
)
def test_git_read_tree_updating_the_work_tree_reaches_the_memory(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """`git read-tree -u` writes the tree it reads over the work tree, as `git reset --hard`
    does: the guard judged neither its -u nor its --prefix."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("git checkout-index -a", True),  # writes what the work tree lacks, an entry removed
        ("git checkout-index -f -a", True),
        ("cd src && git checkout-index -fa", True),  # from the top
        ("git checkout-index --all --force", True),
        ("git ls-files | git checkout-index -f --stdin", True),
        ("git checkout-index --prefix=.gitmem/entries/ -a", True),
        ("git checkout-index --prefix=.gitmem/entries/old- -f -a", True),
        ("git checkout-index --prefix=.gitmem/entries/ -- src/a.py", True),
        ("git checkout-index -f -- .gitmem/entries/a.md", True),
        ("git checkout-index --prefix=export/ -a", False),
        ("git checkout-index --prefix=../export/ -f -a", False),
        ("git checkout-index --prefix=export/ -- .gitmem/entries/a.md", False),  # a copy
        ("git checkout-index -f -- src/a.py", False),
        ("git checkout-index --temp -- .gitmem/entries/a.md", False),  # at the top, by itself
    ],
)
def test_git_checkout_index_writes_below_its_prefix(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """`git checkout-index` writes the index's files at the top of the work tree, after its
    --prefix: the guard did not know it, and let `-a` and `--prefix=.gitmem/entries/` write
    the memory."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("cd src && git checkout -f .", False),  # src's files, from the index
        ("cd src && git checkout --force -- .", False),
        ("git -C src checkout -f .", False),
        ("git checkout -f src", False),
        ("cd src && git checkout -f ':(top)src'", False),
        # from the index, as `git checkout -- .` and `git restore .` are
        ("git checkout -f .", False),
        ("git checkout -f -- .", False),
        ("cd src && git checkout -f ..", False),
        ("cd src && git checkout -f :/", False),
        ("git checkout -- .", False),
        ("git checkout .", False),
        ("git restore .", False),
        # a path in the memory, from the index or not, and the whole work tree from a commit
        ("cd .gitmem && git checkout -f .", True),
        ("git checkout -f .gitmem/entries", True),
        ("git checkout -f -- .gitmem", True),
        ("cd .gitmem && git checkout -- .", True),
        ("git checkout -f main", True),  # a branch, not a path: the whole work tree
        ("git checkout -f HEAD -- .", True),  # from a commit
        ("cd src && git checkout -f", True),
    ],
)
def test_git_checkout_f_of_a_path_restores_from_the_index_as_without_f(
    tmp_path: Path, command: str, denied: bool
) -> None:
    """`git checkout -- .` at the root was allowed (from the index: the memory as it was
    staged) while `git checkout -f .` was denied as replacing the memory, yet with paths -f
    only skips unmerged entries: both write the same files.  They are judged alike now."""
    _committed(tmp_path)
    guard = Guard(str(tmp_path), [".gitmem"])
    assert _bash(guard, command, tmp_path) == denied, command


def test_git_checkout_f_of_a_path_writes_what_it_writes_without_f(tmp_path: Path) -> None:
    """What the decision above rests on, run by git: with a memory file changed, an untracked
    one added and a source file staged then changed again, `git checkout -f .` leaves the
    work tree as `git checkout -- .` does."""
    left = {}
    for name, options in (("plain", ["--"]), ("forced", ["-f"])):
        root = tmp_path / name
        git = _committed(root)
        (root / ".gitmem" / "entries" / "a.md").write_text("a\nchanged\n")
        (root / ".gitmem" / "entries" / "u.md").write_text("untracked\n")
        (root / "src" / "f.py").write_text("staged\n")
        subprocess.run([*git, "add", "src/f.py"], check=True)
        (root / "src" / "f.py").write_text("staged\nthen changed\n")
        subprocess.run([*git, "checkout", "-q", *options, "."], check=True)
        left[name] = {
            str(path.relative_to(root)): path.read_text()
            for path in sorted(root.rglob("*"))
            if path.is_file() and ".git" not in path.relative_to(root).parts[:1]
        }
    assert left["plain"] == left["forced"]
    assert left["plain"][".gitmem/entries/a.md"] == "a\n"


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("rename 's/a/b/' .gitmem/entries/a.md", True),
        ("prename 's/^/old-/' .gitmem/INDEX.md", True),
        ("rename .md .txt docs", True),  # docs holds a memory folder
        ("mmv '*.txt' '.gitmem/entries/#1.md'", True),
        ("fallocate -l 1M .gitmem/INDEX.md", True),
        ("link notes.md .gitmem/entries/b.md", True),
        ("vim -es -c '%s/a/b/' -c wq .gitmem/entries/a.md", True),
        ("ex -sc '%s/a/b/|x' .gitmem/entries/a.md", True),
        ("ed -s .gitmem/INDEX.md <<< $',s/a/b/\\nw'", True),
        ("emacs --batch .gitmem/entries/a.md -f save-buffer", True),
        ("iconv -f latin1 -t utf8 -o .gitmem/INDEX.md notes.txt", True),
        ("pandoc -o .gitmem/entries/a.md page.html", True),
        ("gpg --output .gitmem/entries/a.md -d a.md.gpg", True),
        ("xxd -r dump.hex .gitmem/INDEX.md", True),
        ("rename 's/a/b/' src/x.py", False),
        ("vim -es -c '%s/a/b/' -c wq src/a.py", False),
        ("xxd .gitmem/INDEX.md", False),
        ("iconv -f latin1 -t utf8 .gitmem/INDEX.md", False),
        ("pandoc -o page.html .gitmem/entries/a.md", False),
    ],
)
def test_renamers_editors_and_converters_write_their_files(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """rename, mmv, fallocate, link, the editors' batch modes and the converters' -o wrote
    the files named on their command line, and the guard, which did not know them, let
    them."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("wget -P .gitmem/entries https://example.com/a.md", True),
        ("wget --directory-prefix=.gitmem/candidates https://example.com/c.md", True),
        ("cd .gitmem/entries && wget https://example.com/a.md", True),
        ("cd .gitmem && wget -q https://example.com/INDEX.md", True),
        ("cd .gitmem/entries && curl -sSLO https://example.com/a.md", True),
        ("cd .gitmem && curl --remote-name https://example.com/%49NDEX.md", True),
        ("curl --output-dir .gitmem/entries -O https://example.com/a.md", True),
        ("curl -o a.md --output-dir .gitmem/entries https://example.com/x", True),
        ("wget -r https://example.com/", True),  # any name, in the root
        ("curl -OJ https://example.com/download", True),
        ("wget https://example.com/a.md", False),  # a.md in the root
        ("cd .gitmem && wget https://example.com/notes.md", False),
        ("curl -O https://example.com/a.md", False),
        ("curl https://example.com/INDEX.md", False),  # to the standard output
        ("wget -qO- https://example.com/INDEX.md", False),
        ("cd src && wget -r https://example.com/", False),
        ("curl --output-dir ../downloads -O https://example.com/a.md", False),
    ],
)
def test_downloads_are_judged_by_the_names_they_write(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """wget without -O and curl -O name the file they write after the URL, in the folder
    they run in or the one -P or --output-dir names: the guard judged only -O and -o, and
    let `wget -P .gitmem/entries URL` write an entry."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("cpio -idm < notes.cpio", True),  # any name, in the root
        ("cpio --extract -F notes.cpio", True),
        ("find src | cpio -pdm .gitmem", True),
        ("find . | cpio -o -O .gitmem/INDEX.md", True),
        ("7z x notes.7z", True),
        ("cd .gitmem/entries && 7z e ../../notes.7z", True),
        ("7z a .gitmem/INDEX.md notes.txt", True),
        ("unrar x notes.rar", True),
        ("cd .gitmem/entries && ar x ../../lib.a", True),
        ("ar rcs .gitmem/INDEX.md a.o", True),
        ("cd src && cpio -idm < ../notes.cpio", False),
        ("cpio -idm -D src < notes.cpio", False),
        ("cpio -it < notes.cpio", False),
        ("find src | cpio -pdm ../backup", False),
        ("find . | cpio -o > notes.cpio", False),
        ("7z x notes.7z -o../out", False),
        ("7z l notes.7z", False),
        ("unrar x notes.rar src/", False),
        ("ar x lib.a", False),  # names without folders, in the root
        ("ar t lib.a", False),
    ],
)
def test_archives_the_guard_cannot_read_are_judged_by_their_folder(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """cpio, 7z and unrar extract names their archive holds, which Python cannot read: the
    guard did not know them, and let `cpio -idm < x.cpio` and `7z x x.7z` in the root write
    the memory."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("echo '[memory]' > .gitmem.toml", True),
        ("printf 'dir = \"x\"\\n' >> .gitmem.toml", True),
        ("sed -i s/docs/x/ .GITMEM.TOML", True),
        ("rm -f .gitmem.*", True),
        ("cd src && mv ../.gitmem.toml ../old.toml", True),
        ("find . -name '*.toml' -delete", True),
        ("git checkout HEAD~1 -- .gitmem.toml", True),
        ("cat .gitmem.toml", False),
        ("cp .gitmem.toml ../settings-backup.toml", False),
        ("echo x > src/.gitmem.toml", False),  # not the repository's
        ("find . -name '*.pyc' -delete", False),
    ],
)
def test_the_settings_file_is_guarded(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """`.gitmem.toml` names the memory folders the guard protects: an agent that rewrote its
    `dir` left the memory folder it named unguarded at its next call, and one that set what
    an audit may admit could admit its own candidate with `gitmem admit --auto`."""
    assert _bash(guard, command, tmp_path) == denied, command


def test_moving_the_memory_dir_in_the_settings_is_denied_before_it_unguards(
    tmp_path: Path,
) -> None:
    (tmp_path / "docs" / "memory" / "entries").mkdir(parents=True)
    settings = tmp_path / ".gitmem.toml"
    settings.write_text('[memory]\ndir = "docs/memory"\n')
    guard = Guard(str(tmp_path), [".gitmem", "docs/memory"])
    edit = {"file_path": str(settings), "old_string": "docs/memory", "new_string": "x"}
    assert guard.judge_tool("Edit", edit, str(tmp_path)) is not None


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("sed -n 'w .gitmem/INDEX.md' notes.txt", True),
        ("sed 's/a/b/w .gitmem/entries/x.md' notes.txt", True),
        ("sed -n -e '/x/W .gitmem/candidates/c.md' -e p notes.txt", True),
        ("sed -n '1,5w .gitmem/refused.md' notes.txt", True),
        ("sed -n -f write.sed notes.txt", True),  # its script, read
        ("echo 'w notes.md' > run.sed; sed -f run.sed notes.txt", True),  # as it will be
        ("script -q .gitmem/INDEX.md", True),
        ("script --log-out .gitmem/entries/a.md -c make", True),
        ("sed 's/www/x/' notes.txt", False),
        ("sed -n '/foo/p' .gitmem/INDEX.md", False),
        ("sed -n 'w notes.bak' .gitmem/INDEX.md", False),
        ("sed -n -f read.sed .gitmem/INDEX.md", False),
        ("script -q -c make build.log", False),
        ("cd .gitmem && script -q", False),  # its typescript, in the memory folder
    ],
)
def test_sed_w_and_script_write_the_files_they_name(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """A sed script's `w` commands and `script`'s typescript write files the guard did not
    look for: `sed -n 'w .gitmem/INDEX.md' notes.txt` replaced the index."""
    (tmp_path / "write.sed").write_text("/x/w .gitmem/entries/a.md\n")
    (tmp_path / "read.sed").write_text("/x/p\n")
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("mktemp -p.gitmem/entries", True),
        ("patch -o.gitmem/INDEX.md notes.txt fix.diff", True),
        ("patch -r.gitmem/entries/x.rej -p1 -i src.diff src/a.py", True),
        ("touch -r.gitmem/INDEX.md notes.txt", False),  # the reference, read
        ("sed -i.bak s/a/b/ src/a.py", False),
        ("mktemp -psrc", False),
    ],
)
def test_a_value_written_in_its_option_s_word_is_judged(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """`mktemp -p.gitmem/entries` and `patch -o.gitmem/INDEX.md` wrote where the value
    attached to the option said, and the guard, which dropped every word that began with
    `-`, let them."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("split -l 10 notes.txt .gitmem/entries/part", True),
        ("split -a 1 notes.txt .gitmem/INDEX.m", True),  # its fourth piece is INDEX.md
        ("split --additional-suffix=.md -n 3 notes.txt .gitmem/candidates/", True),
        ("cd .gitmem/entries && split -b 1k ../../notes.txt", True),  # x… where it runs
        ("csplit -f .gitmem/entries/part notes.txt '/^#/' '{*}'", True),
        ("csplit --prefix=.gitmem/candidates/c notes.txt 5", True),
        ("csplit -b '/../.gitmem/entries/%02d.md' notes.txt 5", True),
        ("cd .gitmem/entries && csplit ../../notes.txt 5", True),
        ("split -l 10 .gitmem/INDEX.md parts/index-", False),  # the memory read, pieces elsewhere
        ("split -b 1M big.log", False),
        ("csplit -f parts/p .gitmem/INDEX.md 5", False),
    ],
)
def test_split_and_csplit_write_pieces_named_by_their_prefix(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """split and csplit write their pieces as PREFIX followed by a suffix: the guard knew
    neither, and let `split notes.txt .gitmem/entries/part` write entries."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("uniq notes.txt .gitmem/INDEX.md", True),
        ("uniq -c -f 1 notes.txt .gitmem/entries/a.md", True),
        ("uniq --skip-chars 2 -- notes.txt .gitmem/refused.md", True),
        ("uniq .gitmem/INDEX.md", False),  # read, written to the standard output
        ("uniq -f 1 .gitmem/INDEX.md counts.txt", False),
        ("sort notes.txt | uniq - .gitmem/allowed.md", True),
    ],
)
def test_uniq_writes_its_second_operand(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """`uniq IN OUT` writes OUT: the guard took uniq for a reader and let it replace
    INDEX.md."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("sd retry Retry .gitmem/entries/a.md", True),
        ("sd -F -n 1 'a' 'b' notes.md .gitmem/INDEX.md", True),
        ("sd -f i retry Retry -- .gitmem/refused.md", True),
        ("sd -p retry Retry .gitmem/entries/a.md", False),  # a preview, to the output
        ("cat .gitmem/INDEX.md | sd retry Retry", False),  # the standard input
        ("sd .gitmem/INDEX.md INDEX notes.md", False),  # the memory's name as text
        ("yq -i '.title = \"x\"' .gitmem/entries/a.md", True),
        ("yq --inplace -f process '.a = 1' .gitmem/candidates/c.md", True),
        ("yq -Pi '.a = 1' .gitmem/INDEX.md", True),
        ("yq --in-place -y '.a = 1' .gitmem/entries/a.md", True),  # the Python yq
        ("yq '.title' .gitmem/entries/a.md", False),
        ("yq -I 4 '.a' .gitmem/INDEX.md", False),
    ],
)
def test_sd_and_yq_edit_their_files_in_place(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """sd edits the files it is given in place by default, and `yq -i` (--inplace) as
    `sed -i` does: the guard took both for readers."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("cd .gitmem/entries && patch -p1 < ../../fix.diff", True),
        ("cd .gitmem && patch -p0 -i ../fix.diff", True),
        ("patch -d .gitmem/candidates -p1 < fix.diff", True),
        ("env -C .gitmem/entries patch --strip 1 --input ../../fix.diff", True),
        ("patch -p1 < fix.diff", True),  # a patch missing: any name, in the root
        ("cd src && patch -p1 < ../fix.diff", False),
        ("cd .gitmem/entries && patch -p1 -o /tmp/out.md < ../../fix.diff", False),
    ],
)
def test_patch_without_a_file_writes_where_it_runs(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """Given no file, patch writes the files its patch names, from the folder it runs in (or
    its -d one); GNU patch refuses `..` in them: run in entries/, it writes entries, and the
    guard, which judged only the words it was given, let it."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "folder", "denied"),
    [
        # the names its program spells, where print and printf write
        ("awk 'BEGIN { print 1 > \".gitmem/INDEX.md\" }'", "", True),
        ("awk '{ print $1 >> \".gitmem/entries/a.md\" }' notes.txt", "", True),
        ('gawk \'{ printf("%s\\n", $0) > ".gitmem/INDEX.md" }\' notes.txt', "", True),
        ("awk '/a\\/b/ { n = n / 2; print > (\".gitmem/refused.md\") }' notes.txt", "", True),
        ("awk -e 'END { print > \"../.gitmem/INDEX.md\" }' notes.txt", "src", True),
        ('awk \'{ print > ".gitmem/" "INDEX.md" }\' notes.txt', "", True),  # joined
        ("awk '{ print $1 > \"out.txt\" }' notes.txt", "", False),
        ("awk '{ print ($1 > 2) }' notes.txt", "", False),  # a comparison
        ("awk '{ print > \"/dev/stderr\" }' notes.txt", "", False),
        ("awk -F, 'NR > 1 { print $2 }' .gitmem/INDEX.md", "", False),  # read
        # the commands it runs
        ("awk 'BEGIN { system(\"rm .gitmem/INDEX.md\") }'", "", True),
        ("awk '{ print | \"sort > .gitmem/INDEX.md\" }' notes.txt", "", True),
        ('awk \'BEGIN { system("rm " "../.gitmem/INDEX.md") }\'', "src", True),
        ("awk 'BEGIN { \"date\" | getline d; print d }'", "", False),
        ("awk '{ print | \"sort -u\" }' notes.txt", "", False),
        # a name or command it computes: any name where it runs
        ("awk '{ print > $2 }' notes.txt", "", True),
        ("awk -v out=x '{ print > out }' notes.txt", "", True),
        ("awk '{ system(\"rm \" $1) }' notes.txt", "", True),
        ("awk '{ print > $2 }' notes.txt", "src", False),
        ("awk '{ cmd | getline x }' notes.txt", "src", False),
        # its program files, read
        ("awk -f memory.awk notes.txt", "", True),
        ("awk -f source.awk notes.txt", "", False),
        ("awk -f missing.awk notes.txt", "src", True),  # any file, anywhere
    ],
)
def test_what_an_awk_program_writes_itself_is_judged(
    guard: Guard, tmp_path: Path, command: str, folder: str, denied: bool
) -> None:
    """awk writes files itself (`print > "FILE"`) and runs commands (`system`, pipes):
    the guard read its program as text and let `awk 'BEGIN { print 1 > ".gitmem/INDEX.md" }'`
    through."""
    (tmp_path / "memory.awk").write_text('{ print > ".gitmem/entries/a.md" }\n')
    (tmp_path / "source.awk").write_text('{ print > "src/out.txt" }\n')
    denied_now = guard.judge_tool("Bash", {"command": command}, str(tmp_path / folder))
    assert (denied_now is not None) == denied, command


def test_an_awk_program_computing_its_file_is_denied_with_what_to_do(
    guard: Guard, tmp_path: Path
) -> None:
    denied = guard.judge_tool("Bash", {"command": "awk '{ print > $2 }' x"}, str(tmp_path))
    assert denied is not None
    assert "computes" in denied.reason and "as quoted text in the program" in denied.reason


@pytest.mark.parametrize(
    ("command", "folder", "denied"),
    [
        # the files its -c, --cmd and +CMD commands write, or open for a later :w
        ("vim -c 'w .gitmem/INDEX.md' -c q notes.txt", "", True),
        ("vim +'w .gitmem/INDEX.md' notes.txt", "", True),
        ("vim -es -c 'silent! wq .gitmem/entries/b.md' notes.txt", "", True),
        ("ex -s -c 'saveas .gitmem/entries/b.md' -c q notes.txt", "", True),
        ("vi -c 'sav! ../.gitmem/INDEX.md|q' notes.txt", "src", True),
        ("vim --cmd 'redir! > .gitmem/INDEX.md' notes.txt", "", True),
        ("vim -c 'w >> .gitmem/refused.md' -c q notes.txt", "", True),
        ("vim -c 'e .gitmem/INDEX.md' -c 'norm ggdG' -c wq", "", True),
        ("vim -c 'file .gitmem/INDEX.md' -c w notes.txt", "", True),
        ("vim -c 'g/x/w >> .gitmem/INDEX.md' notes.txt", "", True),
        ("nvim -c 'w .gitmem/INDEX.md' notes.txt", "", True),
        # the commands they run through the shell
        ("vim -c '!rm .gitmem/INDEX.md' notes.txt", "", True),
        ("vim -c 'w !tee .gitmem/INDEX.md' notes.txt", "", True),
        ("vim -c 'r !touch .gitmem/INDEX.md' notes.txt", "", True),
        # ed's and Ex mode's commands from a here-document or a here-string
        ("ed -s notes.txt <<'EOF'\nw .gitmem/INDEX.md\nq\nEOF", "", True),
        ("ed -s notes.txt <<< 'wq .gitmem/entries/b.md'", "", True),
        ("ex -s notes.txt <<'EOF'\n%s/a/b/\nwq .gitmem/entries/b.md\nEOF", "", True),
        ("vim -e -s notes.txt <<'EOF'\n1d\nw .gitmem/INDEX.md\nEOF", "", True),
        ("ed -s notes.txt <<'EOF'\na\nw .gitmem/INDEX.md\n.\nw\nq\nEOF", "", False),  # text
        ("ed -s notes.txt <<'EOF'\n,s/a/b/\nw\nq\nEOF", "", False),
        # what writes only the file it edits, or nothing
        ("vim -es -c '%s/a/b/' -c wq src/a.py", "", False),
        ("vim -c 'w notes.bak' -c q notes.txt", "", False),
        ("vim -c 'set ft=markdown' -c 'call cursor(1, 1)' -c wq notes.txt", "", False),
        ("vim -c 'norm ggdG' -c x notes.txt", "", False),
        ("vim +10 +/retry notes.txt", "", False),
        ("vim -c 'r !ls' -c wq notes.txt", "", False),
        # a name vim expands, code it runs, commands from a pipe: any name where it runs
        ("vim -c 'w %.bak' notes.txt", "", True),
        ("vim -c 'exe \"w \" . g:name' notes.txt", "", True),
        ("vim -c 'lua vim.cmd(\"w x\")' notes.txt", "", True),
        ("printf 'w x\\n' | ed -s notes.txt", "", True),
        ("vim -c 'w %.bak' notes.txt", "src", False),
        ("printf 'w x\\n' | ed -s notes.txt", "src", False),
        # a script it sources, read
        ("vim -S memory.vim notes.txt", "", True),
        ("vim -S source.vim notes.txt", "", False),
        ("vim -S missing.vim notes.txt", "src", True),  # any file, anywhere
    ],
)
def test_what_an_editor_s_own_commands_write_is_judged(
    guard: Guard, tmp_path: Path, command: str, folder: str, denied: bool
) -> None:
    """An editor's operands were judged as written, not the commands it is given:
    `vim -c 'w .gitmem/INDEX.md' -c q notes.txt` and `ed -s x <<< 'w FILE'` wrote the
    memory while the guard allowed them."""
    (tmp_path / "memory.vim").write_text("w .gitmem/INDEX.md\nq\n")
    (tmp_path / "source.vim").write_text("%s/a/b/\nwq\n")
    denied_now = guard.judge_tool("Bash", {"command": command}, str(tmp_path / folder))
    assert (denied_now is not None) == denied, command


@pytest.mark.parametrize(
    ("command", "folder", "denied"),
    [
        # the names its functions write or remove
        ("""perl -e 'rename "a.md", ".gitmem/entries/a.md"'""", "", True),
        ("""perl -e 'rename(".gitmem/entries/a.md", "../x")'""", "", True),  # removed
        ("""perl -e 'unlink ".gitmem/INDEX.md" or die'""", "", True),
        ("""perl -e 'unlink(q{.gitmem/INDEX.md}, qq(.gitmem/refused.md))'""", "", True),
        ("""perl -le 'mkdir ".gitmem/candidates/x"'""", "", True),
        ("""perl -e 'chmod 0644, ".gitmem/INDEX.md"'""", "", True),
        ("""perl -MFile::Copy -e 'copy("notes.md", ".gitmem/entries/b.md")'""", "", True),
        ("""perl -MFile::Path=rmtree -e 'rmtree(".gitmem")'""", "", True),
        ("""perl -e 'rename "a", ".gitmem/" . "INDEX.md"'""", "", True),  # joined
        ("""perl -e 'rename "a", "../.gitmem/INDEX.md"'""", "src", True),
        ("""perl -e 'rename "a.md", "b.md"'""", "", False),
        ("""perl -e 'my %h = (unlink => 1); print $h{unlink}'""", "", False),
        # what open writes, and what it reads
        ("""perl -e 'open(my $fh, ">", ".gitmem/INDEX.md") or die'""", "", True),
        ("""perl -e 'open F, ">>", ".gitmem/refused.md"'""", "", True),
        ("""perl -e 'open(F, ">.gitmem/entries/a.md")'""", "", True),
        ("""perl -e 'open(F, "+<", ".gitmem/INDEX.md")'""", "", True),
        ("""perl -e 'open(my $fh, "<", ".gitmem/INDEX.md"); print <$fh>'""", "", False),
        ("""perl -e 'open(my $fh, ">", "out.txt"); print $fh 1'""", "", False),
        # the commands it runs
        ("""perl -e 'system("rm .gitmem/INDEX.md")'""", "", True),
        ("""perl -e 'system("rm", "-f", ".gitmem/INDEX.md")'""", "", True),
        ("""perl -e '`touch .gitmem/INDEX.md`'""", "", True),
        ("""perl -e 'qx{rm .gitmem/INDEX.md}'""", "", True),
        ("""perl -e 'open(my $p, "|-", "tee .gitmem/INDEX.md")'""", "", True),
        ("""perl -e 'system("ls")'""", "", False),
        # what reads, or prints, only
        ("""perl -ne 'print if /retry/' .gitmem/INDEX.md""", "", False),
        ("""perl -lane 'print $F[0]' notes.txt""", "", False),
        ("""perl -pe 's/a/b/' notes.txt > out.txt""", "", False),
        ("""perl script.pl""", "", False),  # a script it runs
        # a name it computes: any name where it runs
        ("""perl -ne 'chomp; unlink'""", "", True),
        ("""perl -e 'rename $ARGV[0], $ARGV[1]' a b""", "", True),
        ("""perl -e 'open(my $fh, ">", "$dir/x")'""", "", True),
        ("""perl -ne 'chomp; unlink'""", "src", False),
        ("""perl -e 'rename $ARGV[0], $ARGV[1]' a b""", "src", False),
    ],
)
def test_what_a_perl_one_liner_writes_itself_is_judged(
    guard: Guard, tmp_path: Path, command: str, folder: str, denied: bool
) -> None:
    """A Perl one-liner's program was text to the guard: `perl -e 'rename "a",
    ".gitmem/entries/a.md"'`, `unlink`, `open(... ">" ...)` and `system("rm …")` wrote
    the memory while the hook allowed them."""
    denied_now = guard.judge_tool("Bash", {"command": command}, str(tmp_path / folder))
    assert (denied_now is not None) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        # a `<<` the shell does not read as a here-document hides no line after it
        ('echo "<<EOF"\nrm -rf .gitmem\nEOF', True),
        ("echo 'a <<EOF'\nrm -rf .gitmem\nEOF", True),
        ("# see <<EOF\nrm -rf .gitmem\nEOF", True),
        ("cat <<<EOF\nrm -rf .gitmem\nEOF", True),  # a here-string
        ("echo x \\<<EOF\nrm -rf .gitmem\nEOF", True),
        ("echo $((1<<EOF))\nrm -rf .gitmem\nEOF", True),
        ("echo `cat <<EOF`\nrm -rf .gitmem\nEOF", True),  # ends at the backquote
        ('echo "$(echo "a <<EOF b")"\nrm -rf .gitmem\nEOF', True),
        # a body ends where the shell ends it, and the lines after it are commands
        ("cat <<EOF \\\n> .gitmem/INDEX.md\nbody\nEOF", True),  # the line goes on
        ("cat <<A <<B\nx\nA\ny\nB\nrm -rf .gitmem", True),
        ("cat <<'EOF'\nx\n EOF\nEOF\nrm -rf .gitmem", True),
        # and a here-document's body is text
        ("cat <<'EOF'\nrm -rf .gitmem\nEOF", False),
        ("cat <<EOF-1\nEOF\nrm -rf .gitmem\nEOF-1\necho done", False),
        ('cat <<E"OF"\nrm -rf .gitmem\nEOF\necho done', False),
        ("cat <<A <<B\nrm -rf .gitmem\nA\nrm -rf .gitmem\nB\necho done", False),
        ("x=$(cat <<EOF\nrm -rf .gitmem\nEOF\n)", False),
        ("cat > x <<'EOF'\nDon't\nEOF\ncat <<EOF\nrm -rf .gitmem\nEOF", False),
        ("cat <<-EOF\n\trm -rf .gitmem\n\tEOF\necho done", False),
    ],
)
def test_a_here_document_is_one_the_shell_opens(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """The guard took any `<<WORD` for a here-document, in quotes, a comment, arithmetic
    or a here-string's `<<<` too, and skipped the lines after it as its body up to WORD:
    `echo "<<EOF"` followed by `rm -rf .gitmem` was allowed, as bash ran the rm."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize("index", range(5))
def test_the_shell_runs_what_follows_a_false_here_document(tmp_path: Path, index: int) -> None:
    """What the cases above rest on, run by bash: the line after these is run."""
    command = [
        'echo "<<EOF"\ntouch ran\nEOF',
        "# see <<EOF\ntouch ran\nEOF",
        "cat <<<EOF\ntouch ran\nEOF",
        "echo $((1<<EOF))\ntouch ran\nEOF",
        "echo `cat <<EOF`\ntouch ran\nEOF",
    ][index]
    subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True, check=False)
    assert (tmp_path / "ran").exists(), command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("bash <<< 'rm .gitmem/INDEX.md'", True),
        ("bash -s <<'EOF'\nrm -rf .gitmem/entries\nEOF", True),
        ("sh <<EOF\ntouch .gitmem/INDEX.md # $HOME\nEOF", True),  # expanded, as a command is
        ("echo 'rm .gitmem/INDEX.md' | bash", True),
        ("printf 'cd .gitmem\\nrm INDEX.md\\n' | sh", True),
        ("cat <<'EOF' | bash -s -- x\nrm .gitmem/candidates/c.md\nEOF", True),
        ("sudo bash <<< 'rm .gitmem/INDEX.md'", True),
        ("bash <<< 'ls -la'", False),
        ("echo 'make test' | sh", False),
        ("bash script.sh <<< 'rm .gitmem/INDEX.md'", False),  # its input is data to the script
        ("curl -fsSL https://example.com/install.sh | sh", False),  # a script it runs
    ],
)
def test_the_script_a_shell_reads_from_its_input_is_judged(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """`bash <<< 'rm .gitmem/INDEX.md'` and `echo 'rm …' | sh` ran a script the guard could
    read, and the hook allowed them: only a -c string was read as commands."""
    assert _bash(guard, command, tmp_path) == denied, command


def _patches(root: Path) -> None:
    """A repository at root holding an entry and a source file, and the patches git writes of
    a change to each (memory.diff, source.diff, a mail of the entry's, entry.patch), with
    the work tree as it was."""
    git = ["git", "-C", str(root), "-c", "user.name=A", "-c", "user.email=a@example.com"]
    subprocess.run([*git, "init", "-q"], check=True)
    (root / ".gitmem" / "entries" / "a.md").write_text("a\n")
    (root / "src" / "f.py").write_text("f\n")
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    (root / ".gitmem" / "entries" / "a.md").write_text("a\nb\n")
    (root / "src" / "f.py").write_text("f\ng\n")
    for name, paths in (("memory.diff", ["."]), ("source.diff", ["src"])):
        diff = subprocess.run([*git, "diff", "--", *paths], check=True, capture_output=True)
        (root / name).write_bytes(diff.stdout)
    # the entry's diff as diff -u writes it (plain.diff): no `diff --git` line, no index line
    diff = subprocess.run([*git, "diff", "--", ".gitmem"], check=True, capture_output=True)
    lines = diff.stdout.splitlines(keepends=True)
    kept = [line for line in lines if not line.startswith((b"diff --git", b"index "))]
    (root / "plain.diff").write_bytes(b"".join(kept))
    subprocess.run([*git, "commit", "-qam", "two"], check=True)
    subprocess.run([*git, "format-patch", "-q", "-1", "-o", str(root / "mail")], check=True)
    (next((root / "mail").iterdir())).rename(root / "entry.patch")
    subprocess.run([*git, "reset", "-q", "--hard", "HEAD~1"], check=True)


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        # the names its patch holds, judged where it applies them
        ("git apply memory.diff", True),
        ("git apply --index memory.diff", True),
        ("git apply -R -v memory.diff", True),
        ("git apply source.diff", False),
        ("git apply --index source.diff", False),
        ("git apply - < memory.diff", True),
        ("git apply < source.diff", False),
        ("cd src && git apply ../memory.diff", False),  # git skips what lies outside src
        ("git -C src apply ../memory.diff", False),
        ("cd .gitmem && git apply ../memory.diff", True),  # its names are the top's
        ("cd .gitmem/entries && git apply ../../memory.diff", True),
        ("git apply plain.diff", True),
        ("cd src && git apply ../plain.diff", False),  # src/.gitmem/entries/a.md
        ("cd .gitmem && git apply -p2 ../plain.diff", True),  # .gitmem/entries/a.md
        ("git apply --directory=.gitmem -p2 source.diff", False),  # .gitmem/f.py
        ("git apply --directory=.gitmem/entries -p2 source.diff", True),
        ("git apply --cached memory.diff", False),  # the index only
        ("git apply --check memory.diff", False),
        ("git apply --stat memory.diff", False),
        ("patch -p1 < memory.diff", True),
        ("patch < memory.diff", True),  # no -p: each level of its names
        ("patch -p1 -i memory.diff", True),
        ("patch -p1 < source.diff", False),
        ("patch --dry-run -p1 < memory.diff", False),
        ("cd src && patch -p2 -i ../memory.diff", False),  # in src: src/entries/a.md
        ("git am entry.patch", True),
        ("git am < entry.patch", True),
        ("git am -3 --directory=docs entry.patch", False),  # docs/.gitmem/entries/a.md
        # a patch the guard cannot read: denied when it applies where the memory is
        ("git diff | git apply -R", True),
        ("git stash show -p | git apply", True),
        ("cat source.diff | patch -p1", True),
        ("cd src && git diff | git apply -R", False),  # git skips what lies outside src
        ("cd src && patch -p1 < ../missing.diff", False),
        ("git apply missing.diff", True),
        ("git diff > source.diff; git apply source.diff", True),  # as it will be then
        ("patch -p1 < /dev/stdin", True),
        ("git am --continue", True),
        ("git am --abort", True),
        ("git am --show-current-patch", False),
    ],
)
def test_the_files_a_patch_names_are_judged(tmp_path: Path, command: str, denied: bool) -> None:
    """patch, `git apply` and `git am` write the files their patch names, not their
    arguments: the guard let `git apply x.diff` and `patch -p1 < x.diff` rewrite entries
    from the root.  It reads the patch now, and denies one it cannot read that may reach
    the memory."""
    (tmp_path / ".gitmem" / "entries").mkdir(parents=True)
    (tmp_path / "src").mkdir()
    _patches(tmp_path)
    guard = Guard(str(tmp_path), [".gitmem"])
    assert _bash(guard, command, tmp_path) == denied, command


def test_git_apply_in_a_subfolder_writes_only_below_it(tmp_path: Path) -> None:
    """What the cases above rest on, run by git: in src/, git apply skips a git diff's name
    outside src/ and writes a plain diff's name below src/; the guard judged both from the
    top and denied them.  From the root, the entry is written."""
    (tmp_path / ".gitmem" / "entries").mkdir(parents=True)
    (tmp_path / "src").mkdir()
    _patches(tmp_path)
    entry = tmp_path / ".gitmem" / "entries" / "a.md"
    (tmp_path / "src" / ".gitmem" / "entries").mkdir(parents=True)
    (tmp_path / "src" / ".gitmem" / "entries" / "a.md").write_text("a\n")
    for patch in ("memory.diff", "plain.diff"):
        subprocess.run(["git", "apply", f"../{patch}"], cwd=tmp_path / "src", check=True)
    assert entry.read_text() == "a\n"
    assert (tmp_path / "src" / ".gitmem" / "entries" / "a.md").read_text() == "a\nb\n"
    subprocess.run(["git", "apply", "plain.diff"], cwd=tmp_path, check=True)
    assert entry.read_text() == "a\nb\n"


def test_a_patch_it_cannot_read_is_denied_with_what_to_do(guard: Guard, tmp_path: Path) -> None:
    denied = guard.judge_tool("Bash", {"command": "git diff | git apply -R"}, str(tmp_path))
    assert denied is not None
    assert "`git apply`" in denied.reason
    assert "from a pipe" in denied.reason
    assert "Save the patch to a file" in denied.reason


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("git apply <<'EOF'\n{memory}EOF", True),
        ("git apply <<EOF\n{memory}EOF", True),
        ("git apply <<'EOF'\n{source}EOF", False),
        ("patch -p1 <<-'EOF'\n\t{memory}\tEOF", True),
        ("git apply <<'EOF'\n$(cat memory.diff)\nEOF", False),  # quoted: that text, no patch
        ("git apply <<EOF\n$(cat memory.diff)\nEOF", True),  # the shell expands it: not read
        ("git apply <<< '{memory}'", True),
        ("git apply <<< '{source}'", False),
        ('git apply <<< "$(git diff)"', True),
        # written to a file by cat from a here-document earlier in the command: that text
        ("cat > fix.diff <<'EOF'\n{source}EOF\ngit apply fix.diff", False),
        ("cat <<'EOF' > fix.diff\n{source}EOF\ngit apply --index fix.diff", False),
        ("cat > fix.diff <<EOF\n{source}EOF\ngit apply fix.diff", False),  # nothing to expand
        ("cat > fix.diff <<'EOF'\n{source}EOF\ncd src && git apply ../fix.diff", False),
        (
            "cat > fix.diff <<'EOF'\n{source}EOF\ncat > b.diff <<'EOF'\n{memory}EOF\n"
            "git apply fix.diff",
            False,
        ),
        ("cat > fix.diff <<'EOF'\n{memory}EOF\ngit apply fix.diff", True),
        (
            "cat > fix.diff <<'EOF'\n{source}EOF\ncat > fix.diff <<'EOF'\n{memory}EOF\n"
            "git apply fix.diff",
            True,
        ),
        ("cat > fix.diff <<'EOF'\n{memory}EOF\npatch -p1 -i fix.diff", True),
        # and what the guard cannot know it then holds
        ("cat >> fix.diff <<'EOF'\n{source}EOF\ngit apply fix.diff", True),  # appended
        ("cat -n > fix.diff <<'EOF'\n{source}EOF\ngit apply fix.diff", True),
        ("cat 2> fix.diff <<'EOF'\n{source}EOF\ngit apply fix.diff", True),
        ("cat > fix.diff <<'EOF'\n{source}EOF\nsed -i s/x/y/ fix.diff; git apply fix.diff", True),
        ("cat > fix.diff <<EOF\n$(cat memory.diff)\nEOF\ngit apply fix.diff", True),
    ],
)
def test_a_patch_in_a_here_document_is_read(tmp_path: Path, command: str, denied: bool) -> None:
    """An agent writes a patch inline; read as the standard input git apply or patch reads,
    or as the file cat writes it to first: that file was judged as written earlier in the
    command, unread, and `git apply` of it denied at the root whatever it named."""
    (tmp_path / ".gitmem" / "entries").mkdir(parents=True)
    (tmp_path / "src").mkdir()
    _patches(tmp_path)
    patches = {n: (tmp_path / f"{n}.diff").read_text() for n in ("memory", "source")}
    if "<<-" in command:  # the lines' leading tabs, which the shell takes off
        patches = {n: text.replace("\n", "\n\t") for n, text in patches.items()}
    command = command.format(**patches)
    guard = Guard(str(tmp_path), [".gitmem"])
    assert _bash(guard, command, tmp_path) == denied, command


def _archives(root: Path) -> None:
    """Archives at root, made with Python's tarfile and zipfile as tar and zip make them: of
    an entry (memory.tar, memory.zip), of a source file (source.tgz, source.zip), of an entry
    one folder down (deep.tgz: top/.gitmem/…), of a link to entries/ (link.tar), and one
    made on Windows (windows.zip)."""
    (root / "a.md").write_text("a\n")
    with tarfile.open(root / "memory.tar", "w") as archive:
        archive.add(root / "a.md", ".gitmem/entries/a.md")
    with tarfile.open(root / "source.tgz", "w:gz") as archive:
        archive.add(root / "a.md", "./src/a.md")
    with tarfile.open(root / "deep.tgz", "w:gz") as archive:
        archive.add(root / "a.md", "top/.gitmem/entries/a.md")
    with tarfile.open(root / "link.tar", "w") as archive:
        link = tarfile.TarInfo("notes")
        link.type, link.linkname = tarfile.SYMTYPE, ".gitmem/entries"
        archive.addfile(link)
    with zipfile.ZipFile(root / "memory.zip", "w") as archive:
        archive.writestr(".gitmem/candidates/c.md", "c\n")
    with zipfile.ZipFile(root / "source.zip", "w") as archive:
        archive.writestr("src/b.py", "b\n")
    with zipfile.ZipFile(root / "windows.zip", "w") as archive:
        made = zipfile.ZipInfo(".gitmem\\entries\\w.md")
        made.create_system = 0  # on Windows, whose `\\` unzip reads as a `/`
        archive.writestr(made, "w\n")


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("tar xf memory.tar", True),
        ("tar -x -f memory.tar", True),
        ("tar x < memory.tar", True),
        ("cat memory.tar | tar x", True),  # from a pipe: not read
        ("git archive HEAD | tar x", True),
        ("tar xzf deep.tgz --strip-components=1", True),
        ("tar xf link.tar", True),  # a link into the memory
        ("bsdtar -xf memory.tar", True),
        ("tar xf missing.tar", True),  # in the root: any name
        ("unzip memory.zip", True),
        ("unzip -o -q memory.zip", True),
        ("tar xzf source.tgz", False),
        ("tar xzf deep.tgz", False),  # top/.gitmem: another folder's
        ("tar xf memory.tar -C ../export", False),
        ("git archive HEAD | tar x -C ../export", False),
        ("cd src && tar xf ../memory.tar", False),  # src/.gitmem: not the memory
        ("cd src && tar xf ../missing.tar", False),
        ("tar tf memory.tar", False),
        ("tar -xOf memory.tar", False),  # to the standard output
        ("unzip source.zip", False),
        ("unzip -l memory.zip", False),
        ("unzip -p memory.zip .gitmem/candidates/c.md", False),
        ("unzip memory.zip -d ../export", False),
        ("unzip -j memory.zip", False),  # c.md in the root
        ("python3 -m zipfile -e memory.zip .", True),
        ("python -m tarfile -e memory.tar", True),
        ("python3 -m tarfile --extract deep.tgz", False),
        ("python3 -m zipfile -e memory.zip ../export", False),
        ("python3 -m zipfile -l memory.zip", False),
        ("unzip windows.zip", True),  # a `\\` in its names is a folder's `/`
    ],
)
def test_the_files_an_archive_names_are_judged(tmp_path: Path, command: str, denied: bool) -> None:
    """`tar -x` and unzip write the files their archive names, below the folder they extract
    into: the guard judged only that folder, and let `tar xf memory.tar` in the root write
    entries.  It reads the archive now, and an archive it cannot read is judged as a patch
    it cannot read is."""
    (tmp_path / ".gitmem" / "entries").mkdir(parents=True)
    (tmp_path / "src").mkdir()
    _archives(tmp_path)
    guard = Guard(str(tmp_path), [".gitmem"])
    assert _bash(guard, command, tmp_path) == denied, command


def test_a_folder_given_as_a_patch_or_an_archive_is_judged_unreadable(tmp_path: Path) -> None:
    """A folder opens for reading, but fdopen refused its descriptor (IsADirectoryError), and
    the guard failed on `git apply src` or `tar -xf src` at the root instead of judging them:
    a folder is a file it cannot read, with what to do."""
    (tmp_path / ".gitmem" / "entries").mkdir(parents=True)
    (tmp_path / "src").mkdir()
    guard = Guard(str(tmp_path), [".gitmem"])
    for command in ("git apply src", "tar -xf src", "unzip src"):
        denied = guard.judge_tool("Bash", {"command": command}, str(tmp_path))
        assert denied is not None, command
        assert "src is not a regular file" in denied.reason, denied.reason


def test_an_archive_it_cannot_read_is_denied_with_what_to_do(guard: Guard, tmp_path: Path) -> None:
    denied = guard.judge_tool("Bash", {"command": "git archive HEAD | tar x"}, str(tmp_path))
    assert denied is not None
    assert "`tar -x` writes the files its archive names" in denied.reason
    assert "tar -C DIR" in denied.reason


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        # what find finds, judged as find's -exec is
        ("find .gitmem -name '*.md' -print0 | xargs -0 rm", True),
        ("find . -name '*.md' | xargs sed -i s/a/b/", True),
        ("find . -type f | xargs -I{} mv {} {}.bak", True),
        ("find . -name '*.pyc' | xargs rm", False),
        ("find src -name '*.py' | xargs sed -i s/a/b/", False),
        ("find . -name '*.md' | xargs -I{} cp {} ../export/", False),  # read, copied away
        # the names a file or the words before it give
        ("xargs -a memory.txt rm", True),
        ("xargs --arg-file=memory.txt -n 1 rm -f", True),
        ("xargs rm < memory.txt", True),
        ("cat memory.txt | xargs -I{} touch {}", True),
        ("echo .gitmem/INDEX.md | xargs rm", True),
        ("printf '%s\\n' .gitmem/INDEX.md | xargs rm", True),
        ("xargs -a source.txt rm", False),
        ("cat source.txt | xargs rm", False),
        ("echo notes.txt | xargs rm", False),
        ("echo a b | xargs -n 1 mkdir", False),
        # what a command lists: below the folders it is given, or where it runs
        ("grep -rl old . | xargs sed -i s/old/new/", True),
        ("git ls-files | xargs sed -i s/a/b/", True),
        ("xargs -a missing.txt rm", True),
        ("grep -rl old src | xargs sed -i s/old/new/", False),
        ("cd src && git ls-files | xargs sed -i s/a/b/", False),
        ("cd src && xargs -a ../missing.txt rm", True),  # names from anywhere
        ("cd src && xargs rm <<< ../.gitmem/INDEX.md", True),
        ("cd src && xargs rm <<'EOF'\n../.gitmem/entries/a.md\nEOF", True),
        # the lines of a file, sorted, cut or made unique, are words of the file
        ("cd src && sort ../memory.txt | xargs rm", False),  # src/.gitmem/entries/a.md
        ("cd src && sort -u ../source.txt | xargs rm", False),
        ("sort source.txt | xargs rm", False),
        ("sort < source.txt | xargs rm", False),
        ("head -n 1 source.txt | xargs rm", False),
        ("uniq source.txt | xargs -I{} rm {}", False),
        ("sort memory.txt | xargs rm", True),
        ("cd src && sort ../up.txt | xargs rm", True),  # ../.gitmem/entries/a.md
        ("sort -k 1 source.txt memory.txt | xargs rm", True),
        ("sort < memory.txt | xargs rm", True),
        ("tail -n 1 memory.txt | xargs rm", True),
        # and what may print other words: any name
        ("cd src && sort ../missing.txt | xargs rm", True),
        ("cd src && uniq -c ../source.txt | xargs rm", True),
        ("cd src && head -c 5 ../source.txt | xargs rm", True),
        ("cd src && sort --files0-from=../source.txt | xargs rm", True),
        ("cd src && tr a-z A-Z < ../source.txt | xargs rm", True),
        ("cd src && grep entries ../memory.txt | xargs rm", True),
        ("xargs rm <<< src/a.py", False),
        ("docker ps -q | xargs docker stop", False),  # writes no file it is given
        ("git ls-files | xargs wc -l", False),  # reads them
        ("grep -rl old . | xargs grep -n new", False),
    ],
)
def test_the_names_xargs_is_given_are_judged(tmp_path: Path, command: str, denied: bool) -> None:
    """The names xargs adds to its command come from its input, which the guard did not
    read: `find .gitmem -name '*.md' | xargs rm` and `xargs -a list.txt rm` removed entries,
    where `find … -exec rm {} +` was denied."""
    (tmp_path / ".gitmem" / "entries").mkdir(parents=True)
    (tmp_path / ".gitmem" / "entries" / "a.md").write_text("a\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "memory.txt").write_text("notes.txt\n.gitmem/entries/a.md\n")
    (tmp_path / "source.txt").write_text("src/a.py\nsrc/b.py\n")
    (tmp_path / "up.txt").write_text("../.gitmem/entries/a.md\n")
    guard = Guard(str(tmp_path), [".gitmem"])
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("parallel rm ::: .gitmem/entries/a.md", True),
        ("parallel -j 4 sed -i s/a/b/ {} ::: notes.md .gitmem/INDEX.md", True),
        ("parallel rm :::: memory.txt", True),
        ("find .gitmem -name '*.md' | parallel rm", True),
        ("git ls-files | parallel sed -i s/a/b/", True),
        ("parallel --joblog .gitmem/INDEX.md echo ::: a", True),
        ("parallel rm ::: notes.md src/a.py", False),
        ("parallel gzip -k ::: src/a.py src/b.py", False),
        ("parallel rm :::: source.txt", False),
        ("find . -name '*.pyc' | parallel rm", False),
        ("parallel echo ::: .gitmem/INDEX.md", False),
    ],
)
def test_what_gnu_parallel_runs_is_judged_as_xargs_is(
    tmp_path: Path, command: str, denied: bool
) -> None:
    """GNU parallel runs its command on the words after `:::`, the lines of a `::::` file or
    its input, as xargs does: the guard did not know it."""
    (tmp_path / ".gitmem" / "entries").mkdir(parents=True)
    (tmp_path / "src").mkdir()
    (tmp_path / "memory.txt").write_text(".gitmem/entries/a.md\n")
    (tmp_path / "source.txt").write_text("src/a.py\n")
    guard = Guard(str(tmp_path), [".gitmem"])
    assert _bash(guard, command, tmp_path) == denied, command


def test_names_from_a_command_s_output_are_denied_with_what_to_do(
    guard: Guard, tmp_path: Path
) -> None:
    command = "git ls-files | xargs sed -i s/a/b/"
    denied = guard.judge_tool("Bash", {"command": command}, str(tmp_path))
    assert denied is not None
    assert "`xargs sed` writes the files its input names" in denied.reason
    assert "find … -exec" in denied.reason


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("rsync -a --delete ../other/ .", True),  # what the copy lacks: the memory folder
        ("rsync -a --delete-after site/ docs", True),
        ("rsync -a --del ../backup/ ./", True),
        ("rsync -a --delete ../old/.gitmem .", True),  # the copy's own .gitmem, replaced
        ("rsync -a --remove-source-files .gitmem/entries/ /tmp/moved/", True),
        ("rsync --remove-source-files .gitmem/INDEX.md /tmp/", True),
        ("rsync -a --delete build/ dist/", False),
        ("rsync -a --delete src /tmp/mirror", False),  # /tmp/mirror/src
        ("rsync -a ../other/ .", False),  # adds and overwrites, removes nothing
        ("rsync -a .gitmem/ /tmp/memory-copy/", False),
        ("rsync -a --remove-source-files src/ /tmp/moved/", False),
    ],
)
def test_what_rsync_removes_is_judged(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """rsync was judged by its destination alone, as a file written: `--delete` removes
    what the destination holds that the source lacks (run into the repository's root, the
    memory folder), and `--remove-source-files` removes the sources it sent."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    "command",
    [
        "xargs --max-args 1 rm .gitmem/entries/a.md < list.txt",
        "xargs --arg-file list.txt rm .gitmem/entries/a.md",
        "timeout --signal KILL 5 rm .gitmem/entries/a.md",
        "timeout --kill-after 1 5 touch .gitmem/INDEX.md",
        "sudo --user root rm -rf .gitmem/candidates",
        "nice --adjustment 5 rm .gitmem/entries/a.md",
        "env --unset HOME rm .gitmem/INDEX.md",
        "ionice --class 3 rm .gitmem/entries/a.md",
        "stdbuf --output L tee .gitmem/INDEX.md",
        "strace --output trace.txt rm .gitmem/entries/a.md",
        "flock --timeout 5 lock.file rm .gitmem/entries/a.md",
    ],
)
def test_a_prefix_s_long_option_takes_its_value_from_the_next_word(
    guard: Guard, tmp_path: Path, command: str
) -> None:
    """`xargs --max-args 1 rm …`: the guard skipped `--max-args` but not its value, took
    `1` for the command, and let the rm through."""
    assert _bash(guard, command, tmp_path), command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("find . -name '*.pyc' -delete", False),
        ("find . -type d -name __pycache__ -empty -delete", False),
        ("find docs -name '*.orig' -delete", False),  # docs holds docs/memory
        ("find .gitmem -name '*.tmp' -delete", False),
        # a name a memory file has, or may have: Markdown, a protected name, one held now
        ("find . -name '*.md' -delete", True),
        ("find . -iname '*.MD' -delete", True),
        ("find . -name 'README*' -delete", True),  # README.md
        ("find . -name INDEX.md -delete", True),
        ("find . -name candidates -type d -empty -delete", True),
        ("find . -name 'notes.txt' -delete", True),  # entries/decision holds one
        # when the name test no longer bounds what is deleted, or none is given
        ("find . -delete", True),
        ("find . -type f -delete", True),
        ("find . -name '*.pyc' -o -name '*.tmp' -delete", True),
        ("find . ! -name '*.pyc' -delete", True),
        ("find . -not -name '*.pyc' -delete", True),
        ("find . -delete -name '*.pyc'", True),  # deleted before the test
        ("find .gitmem/entries -name '*.pyc' -delete", True),  # all it finds is the memory
    ],
)
def test_find_delete_is_judged_by_the_names_it_deletes(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """`find . -name '*.pyc' -delete` in the repository's root was denied as removing the
    memory folder, though no file of the memory is named so: a name test that every
    deleted file must pass, and that no memory file can, now spares the memory."""
    (tmp_path / ".gitmem" / "entries" / "decision").mkdir()
    (tmp_path / ".gitmem" / "entries" / "decision" / "notes.txt").write_text("x\n")
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("env -S 'rm -f .gitmem/INDEX.md'", True),
        ("env -S'touch' .gitmem/entries/a.md", True),
        ("env -iS 'rm -rf' .gitmem/candidates", True),
        ("env --split-string='sudo rm' .gitmem/entries/a.md", True),
        ("env --split-string 'rm .gitmem/refused.md'", True),
        ("env -S 'cat .gitmem/INDEX.md'", False),
        ("env -S 'python3 -u' script.py", False),
    ],
)
def test_env_split_string_is_the_command_it_runs(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """`env -S STRING` splits STRING into the command it runs (a script's `#!` line uses
    it): the guard skipped the string as -S's value and saw no command."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("git restore -SW .", True),
        ("git restore --staged --worktree -- .gitmem", True),
        ("cd src && git restore --worktree --staged :/", True),
        ("git restore -WS docs", True),
        ("git restore -S .", False),  # the index only
        ("git restore -W .", False),  # from the index
        ("git restore -SW src", False),
    ],
)
def test_git_restore_of_the_index_and_the_work_tree_writes_from_head(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """With --staged and --worktree, git restore's source is HEAD, not the index: it writes
    its paths from a revision as `git checkout HEAD -- PATH` does, which the guard denied
    while it let `git restore -SW .` through."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("rm ';' .gitmem/INDEX.md", True),
        ("rm \\; .gitmem/INDEX.md", True),
        ("rm '|' .gitmem/entries/a.md", True),
        ('rm "&" .gitmem/entries/a.md', True),
        ("rm '<' .gitmem/entries/a.md", True),  # not an input: a file named <
        ("rm -- ')' .gitmem/INDEX.md", True),
        ("rm '\n' .gitmem/refused.md", True),  # a quoted line break
        ("find .gitmem/entries '(' -name '*.md' ')' -delete", True),
        ("find .gitmem/entries \\( -name '*.md' \\) -delete", True),
        ("find . \\( -name '*.pyc' -o -name '*.md' \\) -delete", True),
        ("find . \\( -name '*.pyc' \\) -delete", True),  # grouped: judged wide
        ("grep ';' notes.txt > out.txt", False),
        ("echo '|' \\; '(' > notes.txt", False),
        ("echo x \\\n  > notes.txt", False),  # a backslash joins the lines
    ],
)
def test_a_quoted_operator_character_is_a_word(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """The splitter gives a quoted or escaped `;`, `|`, `&`, `<`, `(` as the same token as
    the operator: `rm ';' .gitmem/INDEX.md` was read as `rm` and a command named
    .gitmem/INDEX.md, and `find DIR \\( -name '*.md' \\) -delete` as a find that deletes
    nothing."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("mv src/a.py .", False),
        ("mv build/out.txt ./", False),
        ("mv -t . src/a.py", False),
        ("mv --target-directory . src/a.py", False),
        ("mv src/a.py docs/", False),  # docs holds the memory folder: it is not removed
        ("mv .gitmem old-memory", True),
        ("mv docs documentation", True),
        ("mv notes.md .gitmem/entries/", True),
        ("mv .gitmem/entries/a.md .", True),
    ],
)
def test_mv_removes_its_sources_not_its_destination(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """`mv src/a.py .` in the repository's root was denied as removing the folder that holds
    the memory: every path of mv was judged as a name removed, its destination too."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("cp -r ../other/.gitmem .", True),
        ("cp -r ../other/.gitmem/ ./", True),
        ("mv ../other/.gitmem .", True),
        ("rsync -a ../other/.gitmem .", True),
        ("cp -r ../other/memory docs", True),  # docs/memory
        ("ln -s ../other/.gitmem .", True),
        ("scp -r host:x/.gitmem .", True),
        ("cp -t . ../other/.gitmem", True),
        ("cp src/a.py .", False),
        ("cp -r ../other/src .", False),
        ("rsync -a ../other/src/ .", False),  # its content: the names in it are not read
        ("cp -r ../other/entries backup", False),
        ("ln -s src/a.py b.py", False),
    ],
)
def test_a_source_copied_into_a_folder_is_judged_under_its_own_name(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """`cp -r ../other/.gitmem .` made the memory folder from another one: the guard judged
    the destination `.` alone, and a folder above the memory is not judged as written. What
    a copier, mv or ln makes in a folder is the source under its own name there."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        # what it runs on every Markdown file below the root, entries among them
        ("find . -name '*.md' -exec sed -i s/retry/Retry/ {} +", True),
        ("find . -iname '*.MD' -exec truncate -s0 {} \\;", True),
        ("find docs -name '*.md' -exec sed -i s/a/b/ {} +", True),  # docs holds docs/memory
        ("find . -type f -exec touch {} +", True),  # no name test: all of it
        ("find . -exec true -name '*.pyc' \\; -exec rm {} +", True),  # true's word, no test
        # a name test no memory file passes spares it
        ("find . -name '*.pyc' -exec rm {} +", False),
        ("find . -type d -name __pycache__ -exec rm -rf {} +", False),
        ("find . -name '*.py' -exec sed -i s/a/b/ {} +", False),
        ("find . -exec echo -delete \\;", False),  # echo's word, not find's action
        ("find .gitmem -exec rm {} \\;", True),
    ],
)
def test_what_find_runs_its_commands_on_is_judged_by_its_names(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """`find . -name '*.md' -exec sed -i … {} +` rewrote every entry: `{}` stood for `.`,
    which a write does not reach. What find runs a command on is what it finds below its
    starting points, judged as -delete's is: by the name tests it must pass."""
    assert _bash(guard, command, tmp_path) == denied, command


def test_a_folder_s_content_copied_is_judged_by_the_names_it_holds(
    guard: Guard, tmp_path: Path
) -> None:
    """`cp -r ../other/. .` and `rsync -a ../other/ .` copy what the folder holds, not the
    folder: another repository's .gitmem among it became this one's, unseen."""
    other = tmp_path / "other"
    (other / ".gitmem" / "entries").mkdir(parents=True)
    (other / "src").mkdir()
    plain = tmp_path / "plain"
    (plain / "src").mkdir(parents=True)
    for command in ("cp -r other/. .", "rsync -a other/ .", "rsync -a other/ ./", "mv other/. ."):
        assert _bash(guard, command, tmp_path), command
    for command in ("cp -r plain/. .", "rsync -a plain/ .", "rsync -a other/src/ src",
                    "cp -r other/. backup", "rsync -a host:x/ ."):  # fmt: skip
        assert not _bash(guard, command, tmp_path), command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("git diff --output=.gitmem/entries/a.md", True),
        ("git show --output .gitmem/INDEX.md HEAD", True),
        ("git log -p --output=.gitmem/refused.md", True),
        ("git clone https://example.com/x.git .gitmem/candidates/x", True),
        ("cd .gitmem/entries && git clone --depth 1 https://example.com/x.git", True),
        ("git clone https://example.com/.gitmem.git", True),  # ./.gitmem, from its URL
        ("git init .gitmem/entries", True),
        ("cd .gitmem/entries && git init", True),
        ("git worktree add -b fix .gitmem/entries/wt", True),
        ("git submodule add https://example.com/x.git .gitmem/entries/x", True),
        ("git bundle create .gitmem/INDEX.md HEAD", True),
        ("git diff --stat > /dev/null", False),
        ("git clone https://example.com/x.git vendor/x", False),
        ("git clone https://example.com/entries.git", False),  # ./entries, not the memory's
        ("git init", False),
        ("git worktree add ../wt main", False),
        ("git worktree list", False),
        ("git submodule update --init", False),
        ("git bundle verify .gitmem/INDEX.md", False),
    ],
)
def test_what_git_makes_where_it_is_told_is_judged(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """git writes a diff's --output, the repository clone and init make, the folder of a
    worktree or a submodule, and a bundle, at the path it is given: the guard knew only the
    -o of git archive and git format-patch."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("git clean -fdx -e .gitmem -e docs/memory", False),
        ("git clean -fdx -e /.gitmem/ -e memory", False),  # `memory`: any folder so named
        ("git clean -fd -- . ':!.gitmem' ':(exclude)docs/memory'", False),
        ("git clean -fdx -e .gitmem", True),  # docs/memory is not spared
        ("git clean -fdx -e .gitmem -e docs/memory -- .gitmem", False),  # itself, spared
        ("git clean -fdx -e docs/memory -- .gitmem", True),
        ("git clean -fdX -e .gitmem -e docs/memory", True),  # -X removes what -e names
        ("git clean -fdx -e .gitmem/entries -e docs/memory", True),  # INDEX.md, candidates/
        ("git clean -fdx -e '*.log'", True),
    ],
)
def test_git_clean_that_spares_the_memory_folders_is_allowed(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """Denied `git clean -fdx` in the repository's root, an agent that excluded the memory
    (`-e .gitmem`, `':!.gitmem'`) was denied again: git clean's exclusions were not read."""
    assert _bash(guard, command, tmp_path) == denied, command


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("touch -r .gitmem/INDEX.md notes.txt", False),
        ("touch --reference .gitmem/INDEX.md notes.txt", False),
        ("truncate -r .gitmem/entries/a.md copy.md", False),
        ("chmod --reference=.gitmem/INDEX.md run.sh", False),
        ("touch -r notes.txt .gitmem/INDEX.md", True),
        ("touch -r .gitmem/INDEX.md .gitmem/INDEX.md", True),  # read, and written
        ("chmod -r .gitmem/INDEX.md", True),  # chmod's -r is a mode
    ],
)
def test_a_reference_file_is_read_not_written(
    guard: Guard, tmp_path: Path, command: str, denied: bool
) -> None:
    """`touch -r .gitmem/INDEX.md notes.txt` takes the times of INDEX.md for notes.txt: the
    guard judged every path of touch as written, the file it reads too."""
    assert _bash(guard, command, tmp_path) == denied, command
