"""The memory-path guard: an agent's own file tools may not write the memory behind review.

Admitted memory changes only through a reviewed merge (`gitmem admit`), candidates only on
their own branches (`gitmem propose`, MCP `memory_push`), INDEX.md only by regeneration,
refused.md only by `gitmem refuse` and allowed.md only by a reviewer's `gitmem admit --allow`.
An agent that edits those files directly produces work
the gates will reject at commit or push time, after the agent has moved on; the guard tells it
at once, in the PreToolUse hook, and points it to `memory_push`.

The invariant it holds, for the tool calls the hook is shown (Write, Edit, MultiEdit,
NotebookEdit and Bash; no other tool's, an MCP server's own file tools among them): a call
whose input spells a write to a protected path below, or a person's decision (`gitmem admit`,
`gitmem refuse`), is denied, however the path or the command is spelled that the file system
or the shell would read as the same one.  It is a guard rail against an agent's mistakes and
a casually injected instruction, not a wall: what a call does not spell (a program that
computes its paths, a script written and run later, output run as commands) goes through,
and so does what takes the local gates away, which it does not judge: `git commit
--no-verify`, `git config core.hooksPath`, writing or removing the scripts in the hooks
folder, `gitmem hooks uninstall`.  The wall is the history judge that the server's hook (or
the CI workflow) runs on every push to the memory branch (docs/security.md): whoever wrote a
change and however it was committed, it reaches the memory only as an admit merge of a valid
candidate by an allowed admitter.

Protected, under every folder that could be the memory folder (gitmem.settings.folders: the
default `.gitmem` and every `dir` a settings source names, valid or not; deliberately wider
than the settings module's answer, as a guard should be):
`entries/` and `candidates/` and everything below them, `INDEX.md`, `refused.md` and
`allowed.md`, and the memory folder itself (removing or moving it removes the entries; the
folders above it are not judged, so `cp notes.txt .` in the repository root stays allowed);
and the settings file `.gitmem.toml` at the repository's top (_SETTINGS: moving `dir` away
from a memory folder would leave it unguarded at the next call, and the file says what
`gitmem admit --auto` may admit).  pyproject.toml's `[tool.gitmem]` table is not guarded (an
agent edits pyproject.toml for much else): the hooks and the server judge a change of it.

How a path is judged: made absolute against the folder the tool runs in, `~` expanded (in a
command, `~+`, `$PWD` and `$(pwd)` as the folder it runs in, `$HOME` as `~`), then
resolved as the operating system would (`..`, `.`, repeated slashes and symbolic links, for the
part of the path that exists: a symlinked folder pointing into the memory is caught), made
relative to the resolved repository root, and compared in any letter case and either Unicode
normal form (_fold: a case-insensitive file system opens `.GITMEM/Entries/x.md` as the real
file, and macOS's open `é` spelled as one code point or two as the same name).  A path outside
the repository, or in a repository nested in it (a linked worktree made inside the project, a
submodule, a clone), is judged the same way against the memory folders of the repository
holding it (the nearest folder above it with a `.git`), when the hook says how to find them:
a session may reach a second repository, whose own hooks do not run.  An existing file with
more than one link is the memory's file when it is a hard link to one (writing it writes the
entry).

File tools: Write, Edit, MultiEdit (`file_path`), NotebookEdit (`notebook_path`).

Bash: the command is split as the shell would (quotes, `;`, `&&`, `||`, `|`, `&`, newlines,
subshell parentheses, each of them a word of text when quoted or escaped (`';'`, `\\(`),
the reserved words of compound commands: `if … then … else`, `while … do`, `!`, `{`; a
here-document's body is text, but for the command substitutions of one whose delimiter is
unquoted, which the shell runs: up to HEREDOC_RUNS characters of them are read as commands;
a here-document is one the shell opens, _heredocs: not a `<<` in quotes, a comment,
arithmetic or backquotes, nor a here-string's `<<<`, and its body ends where the shell
ends it, at a line that is its delimiter word exactly),
and these count as writes, per simple command:
- output redirections (`>`, `>>`, `>|`, `&>`, `&>>`, `2>`, `<>`): their target, whatever the
  command (so `cat > .gitmem/entries/x.md <<EOF` is a write);
- `tee`, `touch`, `truncate`, `rm`, `rmdir`, `unlink`, `shred`, `mkdir`, `chmod`, `chown`,
  `mv`, `trash`, `srm`, `sed -i`/`perl -i`/`ruby -i`/`yq -i` (and `--in-place`,
  `--inplace`), `gawk -i inplace`, `sd` (its files after FIND and REPLACE, unless it only
  previews), `dos2unix`, `patch` (its file to patch and its -o, not the patch it reads),
  `mkfifo`, `mknod`, `mktemp`, `fallocate`, `link`, an editor (`ed`, `ex`, `vi`, `vim`,
  `nvim`, `emacs`, `nano`: the files it opens, in a batch mode too), a compressor (`gzip`,
  `xz`, `bzip2`, `zstd`…, unless to the standard output): their path arguments (every one:
  for `mv` the sources are removed too, and an argument that is not a path resolves outside
  the memory, and a value written in its option's word, `mktemp -p.gitmem/x`; but the file
  a `--reference` names, which is read, touch's and truncate's -r
  too), `sponge` too; `cp`, `install`, `rsync`, `ln`, `scp`: their destination only (for
  `cp`, `install`, `ln` and `mv` the `-t`/`--target-directory` folder, else the last path,
  and each source under its own name there: `cp -r ../x/.gitmem .` makes the memory folder;
  for a folder's content, `cp -r ../x/. .` or `rsync -a ../x/ .`, each name it holds now),
  and what rsync removes: its sources with --remove-source-files, and with --delete what its
  destination holds that the source lacks (the destination itself when a source ends in `/`,
  so `rsync -a --delete build/ .` removes the memory folder); `dd`: its `of=`; `uniq`: its
  second operand (the first is read), and `xxd -r`'s; what a sed script's `w` commands
  write (`sed -n 'w out' in`, `s/a/b/w out`) and what its `e` command runs (`e CMD`; `e`
  alone and the `e` flag of `s///` run a command computed from the input, any name where
  sed runs), and the typescript and logs of `script`;
  what an awk program writes and runs itself (_awk_program: the target of print's and
  printf's `>` and `>>`, the commands of `| CMD`, `CMD | getline` and `system(CMD)`, read
  where the program spells them as string literals; a name or command it computes, from
  a variable or a field, counts as any file below the folder it runs in, and a program
  file it cannot read as any file anywhere, as sed's -f); and so is what an editor's own
  Ex commands write and run (_editor_writes: vim's, vi's and ex's -c, --cmd and +CMD, the
  script -S sources, and, for ed or in Ex mode, the commands of a here-document or a
  here-string: `w FILE`, `saveas FILE`, `wq FILE`, `redir > FILE`, `:e FILE` and `:file
  NAME` that a later `:w` writes, `:!CMD`, `:w !CMD`, `:r !CMD`; a name vim expands, or
  `:exe`, `:lua`, `:source`…, counts as a name it computes); and what a Perl one-liner
  (its -e and -E programs) writes and runs itself (_perl_program: the files `rename`,
  `unlink`, `rmdir`, `mkdir`, `link`, `symlink`, `chmod`, `truncate`, File::Copy's
  `copy` and `move`, File::Path's `make_path` and `rmtree` name, those `open` writes with
  a mode `>`, `>>`, `+<`, in three arguments or two, and the commands of `system`, `exec`,
  a piped open, backquotes and qx; read where the program spells them as literal strings,
  a name it computes, `unlink` of `$_` among them, counting as any file where it runs);
  `split` and `csplit`: the pieces they
  write, their prefix (the folder they run in when none) followed by what they add; what
  `ln` (and
  `cp -l`, `cp -s`) links to, from its own folder and the link's (a link to the memory, made
  in the command that writes through it, is judged before it exists);
- the archive `tar` writes when it creates or appends (`-f`, or the old style's `cf FILE`)
  and the one `zip` writes (its first path); `git archive -o` and `git format-patch -o`, a
  diff's `--output` (`git diff`, `git show`, `git log`…), the repository
  `git clone URL [DIR]` and `git init [DIR]` make (from the URL's last part, in the folder
  it runs in), the folder of `git worktree add` and `git submodule add`, the file of
  `git bundle create`;
- what cpio, 7z and unrar extract (`cpio -i`, `7z x|e`, `unrar x|e`) and what `cpio -p DIR`
  copies, whose names the guard does not read: any file below the folder they write in
  (`cpio -D`, `7z -oDIR`, unrar's folder, or the one they run in), as an archive tar cannot
  read is judged; the archive `cpio -o -O FILE`, `7z a` and `ar r` write, and what `ar x`
  extracts (names without folders) in the folder it runs in;
- what curl and wget name after what they download (_downloaded: wget without -O, curl
  -O; the URL's last part, in wget's -P or curl's --output-dir folder, or the one they run
  in; with wget -r, -m, -i or curl -J, any name below that folder);
- `sort -o`, `curl -o`, `wget -O`/`-o`, `iconv -o`, `pandoc -o`, `gpg -o`, `unzip -d`,
  `tar -C` when it extracts (and the long
  spellings of each): the file or folder the option names (for `unzip` and `tar` without
  one, the folder they run in), and there the files their archive names (_extracted: read
  from its file, tar's from the standard input too; tar's `--strip-components` taken off,
  an absolute name made relative as tar does, what a link member links to, a `\\` in a zip
  member's name as a `/` too; `python -m zipfile -e` and `-m tarfile -e` as unzip and tar);
  an archive the guard cannot read (a pipe, `git archive | tar x`, a file missing, written
  earlier in the same command or compressed and over MAX_ARCHIVE, a format Python does not
  read, names tar's --transform rewrites) is judged as a patch it cannot read, its folder
  as written whole, so that `git archive HEAD | tar x -C ../export` passes;
- `find`: the file its `-fprint`, `-fprint0`, `-fprintf` and `-fls` write, its starting
  points when it `-delete`s, and the commands its `-exec`, `-execdir`,
  `-ok` and `-okdir` run, with each starting point for `{}` (what it finds lies there or
  below), a `{}` they write or remove judged as what -delete removes; a starting point that
  is the memory folder or a folder above it (`find .`) is spared when a name test (-name,
  -iname) before the action, in an expression of `and`s only (the words of the commands it
  runs aside), matches no file of the memory: neither a Markdown file, a protected name nor
  the name of something entries/ or candidates/ hold now (`find . -name '*.pyc' -delete`
  passes, `-name '*.md'` does not);
- the files a patch names, for `patch` (given no file to patch), `git apply` and `git am`
  (_patched): its `---`, `+++`, `***`, `diff --git`, rename, copy and `Index:` lines, read
  from the patch's file or the standard input (`< FILE`, a here-document, a here-string),
  up to MAX_PATCH bytes; patch's from the folder it runs in or its -d one, -p stripped
  (each level, without -p, as GNU patch may guess one), with its -B backups; git's from the
  top of the work tree, -p1 unless told, below --directory, and for git apply run in a
  subfolder only those below it (it skips the others), but for a diff not of git's own
  (no `diff --git` line), whose names git apply reads from the folder it runs in
  (`git apply --cached`, or with only --check or --stat, writes no file).  A patch the
  guard cannot read (from a pipe or an input it inherits, a here-document or here-string
  the shell expands, a file missing, not a regular file, too large, or written earlier in
  the same command but as `cat > FILE` writes a here-document the guard reads, which is
  then read as that text, a mail whose body is encoded, an am going on) counts as writing any
  file below the folder it applies in: patch's, the one git apply runs in (it skips names
  outside it), the top of the work tree for git am; it is denied when that folder is,
  holds or lies in a memory folder, with a reason asking for the patch in a file of its
  own (`git diff | git apply -R` is denied in the root, allowed in src/);
- `git rm`, `git mv`, `git restore`, `git checkout`: their path arguments,
  read as git reads a pathspec (_pathspec): `:/` and `:(top)` from the top of the work
  tree, an exclusion (`:!…`) left out, and wildcards that match `/` and a leading dot
  (`'*INDEX.md'` names .gitmem/INDEX.md), counted when they could name a protected path,
  a Markdown file below entries/ or candidates/, or a file there now.
  Restoring from the index is allowed, and that is the decision for every spelling of it:
  `git checkout [--] PATH`, `git restore PATH` (no --source, not --staged with
  --worktree) and `git checkout -f PATH` write below PATH what the index holds, the
  memory as it was staged (a change the git hooks judge when it is committed), so a
  folder above the memory (`git checkout -- .` at the root) is judged as written, not as
  replaced, while a PATH that names the memory or lies in it is denied.  -f with paths
  does no more than without: it skips unmerged entries where git would otherwise refuse
  (git-checkout(1)), so `git checkout -f .` is judged as `git checkout -- .`;
- `git reset --hard`, `git checkout -f`, `git switch -f` (`--discard-changes`) and
  `git switch --orphan` (which removes every tracked file) with no
  path (git checkout's one operand is a path when it exists where git runs, or has a
  pathspec's magic: `git checkout -f .` restores from the index, as above; git refuses
  one that is a branch too),
  and `git stash pop|apply|branch` of a revision that is no entry of the stash: the
  whole work tree, from its top, replaced as by `git checkout REV -- :/`; `git
  sparse-checkout` (but `list` and `check-rules`) too: `set`, `add`, `reapply` and `init`
  remove what their patterns leave out (`init` keeps the top's files only, and the memory
  folder goes), `disable` writes it back; and so is what
  `git read-tree -u` writes (with -m, --reset or alone; below its --prefix when it has one,
  a path from the top; not with -n, nor without -u, which reads into the index only), and
  what `git checkout-index -a` (or --stdin) writes, below the folder its --prefix names
  (the index's files, at the top after the prefix); the paths it names are judged as git
  checkout's, or, after a prefix, as that folder's.
  They write every tracked file from a commit over what the work tree holds; the guard
  neither reads the commit nor asks git what differs (a hook that ran git would spend its
  time there), so the memory folder below the top counts as replaced, as with `rm -rf` of
  a folder holding it.
  `git clean` (but with -n or --dry-run): the folders it is given, or the one it runs in,
  removed: it removes their untracked files, an entry a person is still writing among them
  (`git clean -fdx src` stays allowed, as does one that excludes every memory folder:
  `-e .gitmem`, `':!.gitmem'`, but for -X, which removes what -e names).  Allowed:
  `git reset` that moves the index or HEAD only (no mode, --soft, --mixed, paths),
  `git checkout BRANCH`, `git switch BRANCH` and `git reset --keep|--merge`, which keep the
  work tree's changes and leave the memory a branch holds (judged by the git hooks and the
  server, as `git merge` is), `git stash` itself (what it takes away it keeps), and an entry
  of the stash popped or applied (`git stash pop`, `stash@{1}`): it puts back what the work
  tree held, written in the guard's sight, and denying it after `git stash` would strand the
  agent's work;
- what `rm`, `rmdir`, `unlink`, `git rm`, `mv` (its sources) and the renamers (`rename`,
  `prename`, `mmv`: their paths) remove is a name, not the file
  it names: the name's folder is resolved, its last part is not (removing a symbolic link to
  an entry removes the link), and a second hard link of a memory file may go (the entry stays
  as it was), but not the memory's own name, which is found by the folder's identity too;
  and removing (or moving) a folder that holds a memory folder, the repository's root or one
  above it, removes the memory with it, as `git checkout REV -- PATH` and `git restore
  --source=REV PATH` (or `--staged --worktree`, from HEAD) replace it (from the index,
  they restore what was staged);
- `gitmem admit` and `gitmem refuse`, however the command is spelled (`python -m gitmem`,
  `python -Im gitmem` or `-mgitmem` as Python reads its options, a
  path to the executable, `uvx gitmem`, `uv run gitmem`, inside `bash -c`, or run by
  another command the guard reads: `find -exec`, xargs, an awk or Perl program's
  `system`, an editor's `:!`, a script a shell reads from its input): admitting and
  refusing are a person's decisions, made after review; `gitmem admit --auto`, which admits
  only what both settings files let an audit admit without a person, stays allowed;
- `cd DIR` (or `pushd DIR`; `cd -` and `popd` back to the folder before, `cd` alone home;
  not `pushd -n` or `popd -n`, which change the folder stack only)
  moves the folder later commands run in, the words `env -S STRING` (`--split-string`) makes
  of its string are the command it runs, `env -C DIR` (or `--chdir`) and `sudo -D DIR` the
  folder of the one command they run; `bash -c`/`sh -c` strings (of any shell, `zsh`, `ash`,
  `mksh`, `fish`, `tcsh`… too; the -c in any cluster of
  options: `bash -lc`; the words after the string as its `$0`, `$1`, `"$@"`) are read the
  same way, as are what `watch` and `flock -c` run, `su -c`, `script -c` and what `eval`
  joins, what git runs through a shell (`git rebase --exec CMD`, `git bisect run CMD`,
  `git submodule foreach CMD`, an alias `git -c 'alias.x=!CMD' x` defines, in the folder
  git runs in: _git_string), and the script a shell given no -c reads from its standard
  input when the guard sees it (_stdin_script: `bash <<'EOF'`, `sh <<< CMD`, `echo CMD |
  sh`, `cat <<'EOF' | sh`, `source /dev/stdin <<< CMD`; not a script file, `sh < FILE`, nor
  another command's output),
  and so are the bodies of command substitutions, `$(…)` and `` `…` `` (the shell
  runs them inside double quotes too, where the splitter sees one word of text), and of
  process substitutions, `<(…)` and `>(…)`, each in the folder of the command it is part of;
  `sudo`, `env`, `command`, `exec`, `nohup`, `time`, `xargs`, `nice`, `timeout`, `uv run`,
  `busybox`, `toybox`,
  `poetry run` and similar prefixes (`taskset MASK`, `chrt PRIO`, `fakeroot`, `unbuffer`,
  `runuser -u USER --`…), with their options and the values those take (`sudo -u root`,
  `sudo --user root`, `timeout 5`), the `function NAME` that opens a body, and
  `VAR=value` are skipped to reach the command (the
  words xargs adds to it are judged too, _xargs_targets: those of its -a file or the file
  its input is redirected from, of `cat FILE |`, of `sort`, `uniq`, `head` and `tail`
  printing a file's lines unchanged (`sort list | xargs rm` reads list), of
  `echo WORDS |` and of what `printf FORMAT WORDS |` prints, its format with them; after
  `find START … |`, what find finds, as its -exec is judged; after a command listing files
  (ls, `grep -l`, `git ls-files`…), names below the folders it is given, or the folder it
  runs in, written whole: `grep -rl old . | xargs sed -i …` is denied in the root (GNU
  parallel's, after `:::` or `::::` too, _parallel); after
  any other command, or from a file it cannot read, any name: denied when the command
  writes the names it is given); a glob
  (`.gitmem/entr*/*`) counts when it could match a protected path, with the shell's rule
  that `*` does not match a leading dot; a brace expansion (`.gitmem/{INDEX,refused}.md`)
  counts as each path it makes (up to MAX_BRACED), and ANSI-C quoting (`$'\\x2egitmem'`) as
  the word the shell decodes, a locale string (`$".gitmem"`) as its text.

What it cannot tell, and leaves to the git hooks and the server (which judge what is
committed and pushed, whoever wrote it): paths in variables the script does not set
itself (`NAME=VALUE`, `export NAME=VALUE` and `for NAME in WORDS` are followed, each value
it ever sets judged, and the word a use spells for itself, `${NAME:-WORD}`, judged too) or in
command substitutions, writes
made by a program the command runs (a script, `python -c`, `make`, but for the awk
programs, editor commands and Perl one-liners above, a patch file or an
archive a program rewrites before it is applied or extracted),
aliases the user's shell files define, git moving a branch itself (`git merge`, `git
update-ref`, `git push`, objects written with `git hash-object -w` and the index changed with
`git update-index`, none of which touches the work tree), the local hooks skipped or removed
(above), and a command the shell cannot split (unbalanced quotes).  The
guard denies only what it can see; everything else is allowed, never failed.

Within its time: Claude Code lets a tool call through when its hook times out (10 s as
`gitmem init --claude` registers it), so a decision that comes late is an allow.  Splitting a
command (shlex builds each word a character at a time: 19 s for one word of a million
characters) and resolving a path (os.path.realpath: 32 s for a million characters of `a/`)
grow faster than their input, so a command longer than MAX_JUDGED characters, here-document
bodies aside, or a path longer than that, is not read word by word: it is denied when it names
a memory folder (its last part, in any letter case, quotes and backslashes aside), with a
reason saying why, and allowed otherwise (in a session outside any repository, a memory
folder any repository it reaches may have: the default one, or one the user's settings name).
Within the bound every decision takes well under a second.
"""

from __future__ import annotations

import fnmatch
import itertools
import os
import re
import shlex
import stat
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, BinaryIO, Final

__all__ = ["FILE_TOOLS", "Denied", "Guard", "bash_targets"]

#: The file tools whose target the guard judges, and the input field naming it.
FILE_TOOLS: Final = {
    "Write": "file_path",
    "Edit": "file_path",
    "MultiEdit": "file_path",
    "NotebookEdit": "notebook_path",
}

_PROTECTED_DIRS: Final = ("entries", "candidates")
#: The project's settings file, at the top of the repository: it names the memory folder
#: and what an audit may admit, so writing it could unguard the memory (a `dir` moved away
#: from the folder it names) or let `gitmem admit --auto` admit unreviewed candidates.
_SETTINGS: Final = ".gitmem.toml"
_PROTECTED_FILES: Final = {
    "index.md": "INDEX.md",
    "refused.md": "refused.md",
    "allowed.md": "allowed.md",
}

#: Commands that run the command after them, with their short options that take a value
#: (the rest of the word, or the next one); timeout then takes its duration.
_PREFIXES: Final = {
    "sudo": "CDghprRtTUu",
    "doas": "Cu",
    "env": "CSu",
    "command": "",
    "exec": "a",
    "nohup": "",
    "time": "fo",
    "xargs": "adEILnPs",
    "nice": "n",
    "timeout": "ks",
    "watch": "dgn",
    "builtin": "",
    "coproc": "",
    "chronic": "",
    "busybox": "",
    "toybox": "",
    "strace": "abeEIoOpPsSuUX",
    "flock": "wEc",
    "ionice": "cnp",
    "stdbuf": "eio",
    "setsid": "",
    # more that run the command after them (taskset and chrt then take a mask, a priority)
    "unbuffer": "",
    "catchsegv": "",
    "fakeroot": "ifs",
    "pkexec": "",
    "dbus-run-session": "",
    "xvfb-run": "fnpsewl",
    "caffeinate": "tw",
    "ltrace": "aAeEnopsSuDFl",
    "valgrind": "",
    "firejail": "",
    "nsenter": "tSG",
    "taskset": "",
    "chrt": "T",
    "runuser": "ugl",
    "systemd-run": "upMEH",
    "run": "",
}
#: The prefixes' long options that take a value, which may be the next word (`xargs
#: --max-args 1 rm …`, `sudo --user root rm …`).
_PREFIX_LONG: Final = {
    "sudo": {"close-from", "group", "host", "prompt", "chroot", "role", "type",
             "command-timeout", "other-user", "user"},
    "env": {"unset", "split-string"},
    "time": {"format", "output"},
    "xargs": {"arg-file", "delimiter", "max-args", "max-procs", "max-chars",
              "process-slot-var"},
    "nice": {"adjustment"},
    "timeout": {"kill-after", "signal"},
    "watch": {"interval", "equexit"},
    "strace": {"output", "trace", "signal", "status", "attach", "user", "env",
               "string-limit", "columns", "expression", "inject", "fault"},
    "flock": {"timeout", "wait", "conflict-exit-code"},
    "ionice": {"class", "classdata", "pid", "pgid", "uid"},
    "stdbuf": {"input", "output", "error"},
    "xvfb-run": {"server-num", "xauth-protocol", "server-args", "error-file", "auth-file"},
    "ltrace": {"output", "library"},
    "nsenter": {"target", "setuid", "setgid"},
    "runuser": {"user", "group", "supp-group", "login"},
    "systemd-run": {"unit", "property", "description", "slice", "uid", "gid", "nice",
                    "working-directory", "setenv", "machine", "host", "on-calendar"},
    "run": {"with", "python", "package", "project", "directory", "env-file", "extra", "group",
            "index", "default-index", "find-links", "environment", "manifest-path"},
}  # fmt: skip
#: The prefixes that run the command in another folder, and their short option for it (the
#: long one is --chdir for both).
_CHDIR: Final = {"env": "C", "sudo": "D"}
#: The shell's reserved words a command can follow in the same simple command as the
#: splitter sees it (`if rm …`, `then rm …`, `do rm …`, `! rm …`, `{ rm …`).
_RESERVED: Final = {"if", "then", "elif", "else", "while", "until", "do", "!", "{"}
_WRITERS: Final = {
    "tee",
    "touch",
    "truncate",
    "shred",
    "mkdir",
    "chmod",
    "chown",
    "chgrp",
    "patch",
    "sponge",
    "dos2unix",
    "unix2dos",
    "mkfifo",
    "mknod",
    "mktemp",
    "fallocate",
    "link",
    # editors, in their batch modes too (`vim -es -c … -c wq FILE`, `ed -s FILE <<<…`,
    # `emacs --batch FILE …`): the files they open they may write
    "ed",
    "red",
    "ex",
    "vi",
    "vim",
    "nvim",
    "emacs",
    "nano",
}
#: The writers whose --reference (and short option for it) names a file they read, not
#: write (chmod's -r is a mode: it takes away read permission).
_REFERENCED: Final = {"touch": "r", "truncate": "r", "chmod": "", "chown": "", "chgrp": ""}
#: Compressors: they replace the files they are given with their archives (or, kept, write
#: the archives beside them), unless told to write to the standard output.
_COMPRESSORS: Final = {
    "gzip", "gunzip", "pigz", "bzip2", "bunzip2", "xz", "unxz", "lzma", "unlzma", "lzip",
    "zstd", "unzstd", "compress", "uncompress", "brotli",
}  # fmt: skip
#: Commands that write where an option says (their short and long option for it): the file
#: (curl, wget, sort) or the folder they extract into (unzip; tar when it extracts).
_OUTPUT_OPTIONS: Final = {
    "sort": ("o", ("--output",)),
    "curl": ("o", ("--output",)),
    "wget": ("oO", ("--output-document", "--output-file")),
    "unzip": ("d", ()),
    "tar": ("C", ("--directory",)),
    "iconv": ("o", ("--output",)),
    "pandoc": ("o", ("--output",)),
    "gpg": ("o", ("--output",)),
}
#: find's actions that write what they print to the file after them.
_FIND_WRITES: Final = {"-fprint", "-fprint0", "-fprintf", "-fls"}
#: find's actions that run a command on what it finds.
_FIND_RUNS: Final = {"-exec", "-execdir", "-ok", "-okdir"}
#: Commands that remove the names they are given (and mv the names it moves): they act on
#: the folder holding a name, never on the file it names, so a second hard link or a symbolic
#: link to a memory file may go (`Guard.judge`'s removed).
_REMOVERS: Final = {
    "rm", "unlink", "rmdir", "mv", "trash", "trash-put", "srm", "rmtrash",
    # renamers: what they rename goes from its name (and mmv's TO pattern is a name made)
    "rename", "prename", "file-rename", "perl-rename", "rename.ul", "mmv",
}  # fmt: skip
#: Commands that write only their destination: the last path, or the -t / --target-directory one.
_COPIERS: Final = {"cp", "install", "rsync", "ln", "scp"}
#: The copiers whose -t names the destination folder (rsync's keeps times, scp's is its own),
#: with their short options that take a value (the rest of the word, or the next one).
_TARGET_FOLDER: Final = {"cp": "S", "ln": "S", "install": "Sgmo", "mv": "S"}
_IN_PLACE: Final = {"sed", "perl", "gsed", "ruby", "awk", "gawk", "yq"}
_GIT_WRITERS: Final = {"rm", "mv", "restore", "checkout"}
#: git's subcommands that write the file or folder their -o (--output, --output-directory)
#: names.
_GIT_OUTPUTS: Final = {"archive", "format-patch"}
_SHELLS: Final = {
    "bash", "sh", "zsh", "dash", "ksh", "rbash", "ash", "mksh", "pdksh", "yash", "posh",
    "fish", "csh", "tcsh",
}  # fmt: skip
#: What runs the script it reads from its standard input: a shell, and `source` (`.`) of a
#: file that is that input (_STDIN).
_READERS: Final = {*_SHELLS, "source", "."}
#: The names of the standard input a shell or `source` may be given as its script.
_STDIN: Final = {"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"}
#: Commands whose -c (or --command) option names a command they run through a shell.
_COMMAND_OPTION: Final = {"su", "runuser", "script"}
#: The shells' short options that take a value (`bash -o pipefail -c …`).
_SHELL_VALUED: Final = {"-o", "+o", "-O", "+O"}
_GLOB_CHARS: Final = frozenset("*?[")

#: The longest command (here-document bodies aside) and the longest path the guard reads word
#: by word.  On the worst inputs of this size found (one long word, a path of 8,000 parts,
#: 8,000 targets, three nested `bash -c`, a glob of 8,000 stars, 4,000 command
#: substitutions) a decision took at most 0.3 s; at twice the size a glob took 0.6 s, and
#: the cost grows faster than the size.
MAX_JUDGED: Final = 16_384
#: The most files of the memory whose hard links the guard recognises (listed once per hook
#: call, and only when a judged file has more than one link).
MAX_LINKED: Final = 50_000
#: The most commands find runs a starting point through that the guard reads (starting points
#: times -exec actions); beyond it the starting points are judged as written, which takes
#: one step each.
FIND_RUNS_READ: Final = 1024
#: The most characters of here-documents' command substitutions read as commands (a body
#: is not bounded by MAX_JUDGED: it is text, but for these).
HEREDOC_RUNS: Final = 4096
#: What the guard ignores when it looks for a memory folder's name in a text it does not split.
_UNQUOTE: Final = str.maketrans("", "", "'\"\\")

REASON: Final = (
    "{path} is part of the project memory ({what}), which changes only through review: do "
    "not write it with file tools or shell commands. To record a lesson, call the MCP tool "
    "memory_push (or run `gitmem propose …`): it becomes a candidate on its own branch for a "
    "person to admit with `gitmem admit`. INDEX.md is regenerated by gitmem; refused.md grows "
    "only through `gitmem refuse`, allowed.md only when a reviewer other than the author "
    "admits with `gitmem admit --allow`."
)
DECISION: Final = (
    "`{command}` decides what the project memory holds, and that is a person's decision, made "
    "after reviewing the candidate: an agent does not run it, even when asked to finish the "
    "work. Tell the user the candidate's id, so that they review it (`gitmem review ID`) and "
    "run `gitmem admit ID` or `gitmem refuse ID --reason …` themselves."
)
UNREAD: Final = (
    "this {kind} is {size:,} characters long{aside}, more than the {limit:,} the memory guard "
    "reads word by word within the hook's time, and it names the memory folder {memory}/: it "
    "is denied in case it writes there. {advice}To record a lesson, call the MCP tool "
    "memory_push (or run `gitmem propose …`): it becomes a candidate on its own branch for a "
    "person to admit with `gitmem admit`."
)

UNSEEN: Final = (
    "`{command}` writes the files its {source} names, and the memory guard cannot read them "
    "({why}): written from {folder}, they may lie in the project memory ({what}), which "
    "changes only through review. {advice} To record a lesson, call the MCP tool "
    "memory_push (or run `gitmem propose …`)."
)
#: What to do with what the guard cannot read, by what it is (_Unseen.source).
UNSEEN_ADVICE: Final = {
    "patch": "Save the patch to a file in a command of its own, then apply that file, so "
    "that the guard reads the names it writes.",
    "input": "Name the files it changes on the command line, or select them with find … "
    "-exec and a -name test that leaves the memory out, or run it on a folder away from the "
    "memory.",
    "download": "Download into a folder of its own, away from the memory (wget -P DIR, "
    "curl --output-dir DIR), or name the file it writes (-O FILE, -o FILE).",
    "script": "Give the script with -e, or save it in a command of its own first, so "
    "that the guard reads the files it writes.",
    "archive": "Extract it into a folder of its own, away from the memory (tar -C DIR, "
    "unzip -d DIR), from a file saved in a command of its own, so that the guard reads its "
    "names.",
    "program": "Spell each file it writes, and each command it runs, as quoted text in the "
    "program, or run it in a folder away from the memory.",
}


class Denied:
    """A write the guard refuses: the path as the agent spelled it, and what of the memory it
    touches; or, for a text too long to read, why it is refused unread.  whole: the path is a
    memory folder, or a folder holding one, removed whole (what `git clean` may be told to
    spare, and what find's name tests may leave alone); elsewhere: the root of the other
    repository whose memory it is (never spared: this guard does not list its files).
    The decisions read these, never the wording of what.  (A plain class: the hook's deny
    path stays clear of dataclasses' imports.)"""

    __slots__ = ("elsewhere", "path", "unread", "what", "whole")

    def __init__(
        self, path: str, what: str, unread: str | None = None, *, whole: bool = False
    ) -> None:
        self.path = path
        self.what = what
        self.unread = unread
        self.whole = whole
        self.elsewhere: str | None = None

    def of(self, root: str, path: str | None = None) -> Denied:
        """This denial, of the memory of the repository at root (the innermost one named
        stands), for path as the agent spelled it (this one's when None)."""
        found = Denied(self.path if path is None else path, self.what, self.unread)
        found.whole = self.whole
        found.elsewhere = self.elsewhere or root
        return found

    @property
    def reason(self) -> str:
        if self.unread is not None:
            return self.unread
        where = f" of the repository {self.elsewhere}" if self.elsewhere else ""
        return REASON.format(path=self.path, what=self.what + where)


class Guard:
    """Judges paths against the memory folders of one repository, and, given `elsewhere`
    (the memory folders of a repository root), a path outside it against the memory of the
    repository holding it: a session may reach a second repository (a folder added to it, a
    sibling checkout) whose own hooks do not run."""

    def __init__(
        self,
        root: str,
        memory_dirs: Iterable[str],
        elsewhere: Callable[[str], Iterable[str]] | None = None,
        reached: Callable[[], Iterable[str]] | None = None,
    ) -> None:
        self.root = os.path.realpath(root)
        spelled = {d.strip("/") for d in memory_dirs if d.strip("/")}
        self.dirs = sorted({_fold(d) for d in spelled})
        self._spelled = sorted(spelled)
        # the memory folders a text too long to read is searched for beside these (_unread):
        # for a session outside any repository, those of the repositories it may reach
        self._reached = reached
        # the memory's protected files and its folders, by inode (_memory)
        self._inodes: tuple[dict[tuple[int, int], str], set[tuple[int, int]]] | None = None
        self.elsewhere = elsewhere
        self._roots: dict[str, str | None] = {}  # a folder outside root: its repository's root
        self._others: dict[str, Guard] = {}
        # what lies below each protected folder, for git's patterns (_held), and how many
        # of those names the patterns of one decision have been tested against
        self._listed: dict[str, list[str] | None] = {}
        self._tested = 0

    # -- one path --------------------------------------------------------------------------

    def judge(self, path: str, cwd: str, *, removed: bool = False) -> Denied | None:
        """Denied when writing path (as spelled, relative to cwd) would touch the memory; with
        removed, when removing (or renaming) that name would, or replacing the tree below it
        (git from a revision).  A removal acts on the folder
        holding the name, not on the file it names: a symbolic link to a memory file, or a
        second hard link of one, goes and leaves the entry as it was; the memory's own name
        goes with the entry, however it is spelled (_own_name)."""
        if not path or "\0" in path or "\0" in cwd:
            return None  # no system call takes a NUL in a path: nothing can be written there
        if len(path) > MAX_JUDGED:
            return self._unread("path", path)
        if isinstance(path, _Pathspec):
            denied = self._judge_pathspec(path, cwd, removed=removed)
            return None if denied and path.spared and self._spared(denied, path) else denied
        if isinstance(path, _Found):
            return self._judge_found(path, cwd)
        if isinstance(path, _Unseen):
            return self._judge_unseen(path, cwd)
        if isinstance(path, _Decision):
            return Denied(path, "a person's decision", DECISION.format(command=path))
        expanded = _braces(path)
        if expanded is not None:  # `{a,b}`: each path the shell makes of it
            judged = (self.judge(each, cwd, removed=removed) for each in expanded)
            return next((denied for denied in judged if denied is not None), None)
        spelled = cwd + path[2:] if path == "~+" or path.startswith("~+/") else path
        spelled = os.path.expanduser(spelled)  # `~+` is the folder it runs in, `~` home
        if any(c in spelled for c in _GLOB_CHARS):
            return self._judge_glob(path, spelled, cwd)
        joined = os.path.join(cwd, spelled)
        full = _name_path(joined) if removed else os.path.realpath(joined)
        parts = self._relative(full)
        if parts is None:
            other = self._other(full)
            what = other._protected(other._relative(full), removed) if other else ""
            if other and what:
                return Denied(path, what).of(other.root)
            if removed and not what and self.dirs and _holds(full, self.root):
                what = f"a folder holding the repository and its memory {self.dirs[0]}/"
            whole = False
        else:
            what = self._protected(parts, removed)
            whole = bool(what) and self._is_whole(parts)
            nested = self._other(full) if not what else None
            if nested is not None:
                inner = nested._protected(nested._relative(full), removed)
                if inner:
                    return Denied(path, inner).of(nested.root)
        what = what or (self._own_name(full) if removed else self._linked(full))
        return Denied(path, what, whole=whole) if what else None

    def _linked(self, full: str, *, follow: bool = True) -> str:
        """What of the memory an existing file is a hard link to ('' when nothing): writing
        through the link writes the memory's file (`ln .gitmem/entries/a.md notes.md`).
        Asked only of a file with more than one link; the memory's files are listed once per
        guard, at most MAX_LINKED of them."""
        try:
            found = os.stat(full) if follow else os.lstat(full)
        except (OSError, ValueError):
            return ""
        if not stat.S_ISREG(found.st_mode) or found.st_nlink < 2:
            return ""
        return self._memory()[0].get((found.st_dev, found.st_ino), "")

    def _own_name(self, full: str) -> str:
        """What of the memory removing full (a name, its folder resolved) removes: a hard
        link to a memory file whose folder is one of the memory's own (found by identity,
        not by spelling: a bind mount, or another spelling a file system takes for the same
        name), '' for a second name elsewhere, whose removal leaves the file."""
        what = self._linked(full, follow=False)
        if not what:
            return ""
        try:
            folder = os.stat(os.path.dirname(full))
        except (OSError, ValueError):
            return what  # cannot tell which name it is: judged as the memory's own
        return what if (folder.st_dev, folder.st_ino) in self._memory()[1] else ""

    def _memory(self) -> tuple[dict[tuple[int, int], str], set[tuple[int, int]]]:
        """The memory's protected files and its folders, by (device, inode), listed once."""
        if self._inodes is None:
            self._inodes = _memory_inodes(self.root, self._spelled)
        return self._inodes

    def _other(self, full: str) -> Guard | None:
        """The guard of another repository holding full, a resolved path (the nearest folder
        above it with a `.git`): one outside this one, or one nested inside it (a linked
        worktree made in the project, `git worktree add .worktrees/x`, a submodule, a
        clone), whose memory a path below this root would otherwise be judged against this
        one's folders alone; None when this repository holds it, none does, or no
        `elsewhere` was given."""
        if self.elsewhere is None:
            return None
        visited = []
        here: str | None = full
        while here is not None and here not in self._roots:
            visited.append(here)
            if os.path.exists(os.path.join(here, ".git")):
                break
            parent = os.path.dirname(here)
            here = parent if parent != here else None
        found = self._roots.get(here) if here in self._roots else here
        for folder in visited:
            self._roots[folder] = found
        if found is None or found == self.root:
            return None
        if found not in self._others:
            self._others[found] = Guard(found, self.elsewhere(found))
        return self._others[found]

    def _relative(self, full: str) -> list[str] | None:
        """The path's parts below the repository root, folded (_fold); None when outside it."""
        try:
            rel = os.path.relpath(full, self.root)
        except ValueError:  # another drive (Windows)
            return None
        if rel == os.curdir:
            return []
        parts = rel.split(os.sep)
        if parts[0] == os.pardir:
            return None
        return [_fold(p) for p in parts]

    def _protected(self, parts: Sequence[str] | None, removed: bool = False) -> str:
        """What of the memory the parts name ('' when nothing protected); a folder holding a
        memory folder too, when it is removed (the memory goes with it)."""
        if parts is None:
            return ""
        if self.dirs and list(parts) == [_SETTINGS]:
            return f"the settings file {_SETTINGS}"
        for memory in self.dirs:
            own = memory.split("/")
            if len(parts) <= len(own):
                if list(parts) == own:
                    return f"the memory folder {memory}/ itself"
                if removed and own[: len(parts)] == list(parts):
                    return f"a folder holding the memory folder {memory}/"
                continue
            if list(parts[: len(own)]) != own:
                continue
            below = parts[len(own)]
            if below in _PROTECTED_DIRS:
                return f"{memory}/{below}/"
            if below in _PROTECTED_FILES and len(parts) == len(own) + 1:
                return f"{memory}/{_PROTECTED_FILES[below]}"
        return ""

    def _is_whole(self, parts: Sequence[str]) -> bool:
        """Whether parts name a memory folder or a folder holding one (what _protected calls
        `the memory folder … itself` or, removed, `a folder holding …`)."""
        return any(
            len(parts) <= len(own) and own[: len(parts)] == list(parts)
            for own in (memory.split("/") for memory in self.dirs)
        )

    def _judge_glob(self, path: str, spelled: str, cwd: str) -> Denied | None:
        """A glob counts when, part by part, it could match a protected path."""
        base = os.path.join(cwd, spelled)
        parts = os.path.normpath(base).split(os.sep)
        fixed = []
        for part in parts:
            if any(c in part for c in _GLOB_CHARS):
                break
            fixed.append(part)
        head = os.path.realpath(os.sep.join(fixed) or os.sep)
        rest = parts[len(fixed) :]
        rel = self._relative(head)
        if rel is None:
            other = self._other(head)
            denied = other._judge_glob(path, spelled, cwd) if other else None
            return denied.of(other.root) if other and denied else denied
        pattern = [*rel, *(_fold(p) for p in rest)]
        for target in self._protected_paths():
            if _glob_reaches(pattern, target):
                return Denied(path, self._protected(target) or "/".join(target))
        nested = self._other(head)  # a repository inside this one the glob lies in
        denied = nested._judge_glob(path, spelled, cwd) if nested else None
        return denied.of(nested.root) if nested and denied else denied

    def _spared(self, denied: Denied, spec: _Pathspec) -> bool:
        """Whether what `git clean` was denied for, a folder holding the memory, keeps every
        memory folder: each matched, whole, by an -e pattern or an exclusion it was given
        (`git clean -fdx -e .gitmem`, `git clean -fd -- . ':!.gitmem'`)."""
        if not denied.whole or denied.elsewhere:
            return False
        patterns = [_fold(p).strip("/") for p in spec.spared]
        return all(
            any(
                fnmatch.fnmatchcase(memory, p)
                or ("/" not in p and fnmatch.fnmatchcase(memory.rsplit("/", 1)[-1], p))
                for p in patterns
            )
            for memory in self.dirs
        )

    def _judge_unseen(self, folder: _Unseen, cwd: str) -> Denied | None:
        """The folder a patch the guard cannot read applies in (from the top of the work tree
        holding cwd, for git am): denied when it is, or holds, or lies in a memory folder, as
        the names in the patch may be any below it."""
        where = cwd
        if folder.top:
            other = self._other(os.path.realpath(cwd))
            where = other.root if other is not None else self.root
        denied = self.judge(str(folder), where, removed=True)
        if denied is None:
            return None
        spelled = "the top of the work tree" if folder.top else denied.path
        spelled = "anywhere" if str(folder) == os.sep else spelled
        reason = UNSEEN.format(
            command=folder.command,
            source=folder.source,
            why=folder.why,
            folder=spelled,
            what=denied.what,
            advice=UNSEEN_ADVICE[folder.source],
        )
        found = Denied(denied.path, denied.what, reason, whole=denied.whole)
        found.elsewhere = denied.elsewhere
        return found

    def _judge_found(self, start: _Found, cwd: str) -> Denied | None:
        """A starting point of `find … -delete`, removed: denied as any removal is, but when
        it is this repository's memory folder or a folder above it, only if every name
        pattern the deleted files must match could match a file of the memory (_may_name):
        `find . -name '*.pyc' -delete` deletes none of it.  A starting point in entries/ or
        candidates/, or in another repository, stays denied (all it finds is the memory, or
        a memory whose files this guard does not list)."""
        denied = self.judge(str(start), cwd, removed=True)
        if denied is None or not start.names or denied.elsewhere or not denied.whole:
            return denied
        return denied if all(map(self._may_name, start.names)) else None

    def _may_name(self, pattern: str) -> bool:
        """Whether find's name pattern (-name, -iname; compared in any letter case) could
        match the name of a file or folder of the memory: a Markdown file's (what entries
        are), a protected file's or folder's, the memory folder's own, or one entries/ or
        candidates/ holds now (all of them when there are more than MAX_LINKED)."""
        tokens = _wild_tokens(_fold(pattern))
        if _may_end(tokens, _after(tokens, "")[0], ".md"):
            return True
        names = {*_PROTECTED_DIRS, *_PROTECTED_FILES, *(m.rsplit("/", 1)[-1] for m in self.dirs)}
        names.add(_SETTINGS)
        for target in self._protected_paths():
            if target[-1] in _PROTECTED_DIRS:
                held = self._held(target)
                if held is None:
                    return True
                names.update(name.rsplit("/", 1)[-1] for name in held)
        return any(map(_as_regex(tokens).fullmatch, names))

    def _judge_pathspec(self, spec: _Pathspec, cwd: str, *, removed: bool) -> Denied | None:
        """A git pathspec as git reads it: from the top of the work tree holding cwd when its
        magic says `top`, and with wildcards that match `/` and a leading dot too (git's
        fnmatch without FNM_PATHNAME), so that `'*INDEX.md'` names .gitmem/INDEX.md.  A
        pattern counts when it could match a protected path, a path below a protected folder,
        or a folder holding one (git takes a pathspec naming a folder for all it holds)."""
        where = cwd
        if spec.top:
            other = self._other(os.path.realpath(cwd))  # outside this one, or nested in it
            where = other.root if other is not None else self.root
        if spec.within:  # git apply's name from the top: written only below where it runs
            here = os.path.realpath(cwd)
            if not _holds(where, here):
                where = cwd  # in no work tree git applies as patch does, from where it runs
            elif not _holds(here, os.path.normpath(os.path.join(where, spec))):
                return None
        if not spec.wild:
            return self.judge(str(spec), where, removed=removed)
        expanded = _braces(str(spec))
        for pattern in expanded if expanded is not None else [str(spec)]:
            spelled = os.path.expanduser(pattern)
            cut = min((spelled.find(c) for c in _GLOB_CHARS if c in spelled), default=0)
            fixed = spelled[: spelled.rfind("/", 0, cut) + 1]  # the folders before a wildcard
            rest = spelled[len(fixed) :]
            head = os.path.realpath(os.path.join(where, fixed or os.curdir))
            rel = self._relative(head)
            if rel is None:
                other = self._other(head)
                denied = (
                    other._judge_pathspec(_Pathspec(pattern, wild=True), where, removed=removed)
                    if other
                    else None
                )
                if other is not None and denied is not None:
                    return denied.of(other.root, str(spec))
                continue
            tokens = _wild_tokens(_fold(rest))
            for target in self._protected_paths():
                folder = target[-1] in _PROTECTED_DIRS
                if rel[: len(target)] == target and folder:
                    return Denied(str(spec), self._protected(target))  # it runs in there
                if target[: len(rel)] != rel or len(rel) == len(target):
                    continue
                below = "/".join(target[len(rel) :])
                states, named = _after(tokens, below)
                if named or (folder and self._reaches_below(tokens, states, target, below)):
                    return Denied(str(spec), self._protected(target))
            nested = self._other(head)  # a repository inside this one the pattern lies in
            inner = _Pathspec(pattern, wild=True)
            denied = nested._judge_pathspec(inner, where, removed=removed) if nested else None
            if nested is not None and denied is not None:
                return denied.of(nested.root, str(spec))
        return None

    def _reaches_below(
        self, tokens: Sequence[str], states: set[int], target: Sequence[str], spelled: str
    ) -> bool:
        """Whether a git pattern that has read a protected folder's path (states) can go on
        to name what it holds: a Markdown file below it (what entries and candidates are,
        in any revision git may write them from), or a file or folder there now.  The names
        there are listed once per guard, and at most MAX_LINKED names are tested in all:
        past that, a pattern is judged to reach (a decision that came after the hook's
        timeout would be an allow)."""
        states, _ = _after(tokens, "/", states)
        if not states:
            return False
        if _may_end(tokens, states, ".md"):
            return True
        held = self._held(target)
        if held is None or self._tested + len(held) > MAX_LINKED:
            return True
        self._tested += len(held)
        matches = _as_regex(tokens).fullmatch
        return any(matches(f"{spelled}/{name}") for name in held)

    def _held(self, target: Sequence[str]) -> list[str] | None:
        """The folders and files below a protected folder (target: its parts below the
        root), folded (_fold) and relative to it; None when there are more than MAX_LINKED."""
        key = "/".join(target)
        if key not in self._listed:
            names: list[str] = []
            for base in (os.path.join(self.root, m, target[-1]) for m in self._spelled):
                if _fold(os.path.relpath(base, self.root).replace(os.sep, "/")) != key:
                    continue
                for folder, folders, files in os.walk(base):
                    here = _fold(os.path.relpath(folder, base).replace(os.sep, "/"))
                    for name in (*folders, *files):
                        names.append(_fold(name) if here == os.curdir else f"{here}/{_fold(name)}")
                    if len(names) > MAX_LINKED:
                        break
            self._listed[key] = names if len(names) <= MAX_LINKED else None
        return self._listed[key]

    def _unread(self, kind: str, text: str, aside: str = "") -> Denied | None:
        """The decision on a text too long to read in time (MAX_JUDGED): denied when it names a
        memory folder, whatever quotes or backslashes split the name, in any letter case."""
        folded = _fold(text.translate(_UNQUOTE))
        dirs = self.dirs
        if self._reached is not None:
            dirs = sorted({*dirs, *(_fold(d.strip("/")) for d in self._reached() if d.strip("/"))})
        named = next((m for m in dirs if m.rsplit("/", 1)[-1] in folded), None)
        if named is None:
            return None
        advice = (
            "If it does not, split it into shorter commands, or put the long text in a file "
            "or a here-document. "
            if kind == "command"
            else ""
        )
        reason = UNREAD.format(
            kind=kind, size=len(text), aside=aside, limit=MAX_JUDGED, memory=named, advice=advice
        )
        return Denied(f"a {kind} of {len(text):,} characters", f"it names {named}/", reason)

    def _protected_paths(self) -> Iterator[list[str]]:
        if self.dirs:  # a repository whose memory the guard knows: its settings file too
            yield [_SETTINGS]
        for memory in self.dirs:
            own = memory.split("/")
            yield from ([*own, name] for name in (*_PROTECTED_DIRS, *_PROTECTED_FILES))

    # -- a tool call -----------------------------------------------------------------------

    def judge_tool(self, tool: str, tool_input: object, cwd: str) -> Denied | None:
        """Denied for a file tool writing the memory, or a Bash command visibly doing so."""
        if not isinstance(tool_input, dict):
            return None
        field = FILE_TOOLS.get(tool)
        if field is not None:
            target = tool_input.get(field)
            return self.judge(target, cwd) if isinstance(target, str) else None
        if tool == "Bash":
            command = tool_input.get("command")
            if not isinstance(command, str):
                return None
            heres: list[str | None] = []
            raws: list[str] = []
            script = _strip_heredocs(command, heres, raws)
            if len(script) > MAX_JUDGED:
                return self._unread("command", script, " (here-document bodies aside)")
            for decision in _decisions(script, 0):
                return Denied(decision, "a person's decision", DECISION.format(command=decision))
            seen = _Script(heres, raws=raws)
            for target, where, removed in _script_targets(script, cwd, 0, seen):
                denied = self.judge(target, where, removed=removed)
                if denied is not None:
                    return denied
        return None


def _memory_inodes(
    root: str, memories: Sequence[str]
) -> tuple[dict[tuple[int, int], str], set[tuple[int, int]]]:
    """(device, inode) of each protected file of the memory folders, with what it is, and of
    the memory folders and every folder below their entries/ and candidates/."""
    inodes: dict[tuple[int, int], str] = {}
    folders: set[tuple[int, int]] = set()

    def enter(path: str) -> None:
        try:
            found = os.stat(path)
        except OSError:
            return
        folders.add((found.st_dev, found.st_ino))

    def add(path: str, what: str) -> None:
        try:
            found = os.lstat(path)
        except OSError:
            return
        if stat.S_ISREG(found.st_mode):
            inodes[(found.st_dev, found.st_ino)] = f"a hard link to {what}"

    for memory in memories:
        base = os.path.join(root, memory)
        enter(base)
        for name in _PROTECTED_FILES.values():
            add(os.path.join(base, name), f"{memory}/{name}")
        for name in _PROTECTED_DIRS:
            for folder, _, files in os.walk(os.path.join(base, name)):
                enter(folder)
                for file in files:
                    add(os.path.join(folder, file), f"{memory}/{name}/")
                if len(inodes) >= MAX_LINKED:
                    return inodes, folders
    return inodes, folders


def _fold(text: str) -> str:
    """text as the guard compares names: in any letter case and either Unicode normal form
    (Unicode's canonical caseless match), since the file systems of macOS and Windows open
    `.GITMEM` as `.gitmem`, and macOS's open `é` written as one code point or as `e` and a
    combining accent as one name."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", text).casefold())


def _holds(folder: str, path: str) -> bool:
    """Whether folder is path or a folder above it (both resolved)."""
    try:
        return os.path.commonpath([folder, path]) == folder
    except ValueError:  # another drive (Windows)
        return False


#: A brace expansion's innermost group of alternatives, not a parameter's `${…}`.
_BRACES = re.compile(r"(?<!\$)\{([^{}]*,[^{}]*)\}")
#: The most paths the guard makes of one word's brace expansions.
MAX_BRACED: Final = 256


def _braces(word: str) -> list[str] | None:
    """The words the shell makes of word's brace expansions (`.gitmem/{INDEX,refused}.md`),
    innermost first; None when it has none. A quoted brace is expanded too (the splitter has
    taken the quotes off): a path judged once more, never one less.  Past MAX_BRACED words,
    the groups left become `*`, a glob that matches every alternative."""
    if "{" not in word or _BRACES.search(word) is None:
        return None
    words = [word]
    done = []
    while words:
        current = words.pop()
        found = _BRACES.search(current)
        if found is None:
            done.append(current)
            continue
        head, tail = current[: found.start()], current[found.end() :]
        if len(words) + len(done) + found.group(1).count(",") + 1 > MAX_BRACED:
            done.append(_BRACES.sub("*", current))
            continue
        words.extend(head + part + tail for part in found.group(1).split(","))
    return done


def _name_path(joined: str) -> str:
    """The path of the name a removal acts on: its folder resolved (`..`, symbolic links),
    its last part kept as it is, since removing a symbolic link removes the link; a path
    ending in `/`, `.` or `..` names the folder it resolves to."""
    folder, name = os.path.split(joined)
    if name in ("", os.curdir, os.pardir):
        return os.path.realpath(joined)
    return os.path.join(os.path.realpath(folder), name)


def _glob_reaches(pattern: Sequence[str], target: Sequence[str]) -> bool:
    """True when the glob's parts could match target or a path below or above it."""
    for pat, name in zip(pattern, target, strict=False):
        if pat.startswith(("*", "?", "[")) and name.startswith(".") and not pat.startswith("."):
            return False  # the shell's `*` does not match a leading dot
        if not fnmatch.fnmatchcase(name, pat):
            return False
    return True


class _Found(str):
    """A starting point of `find … -delete`, with the name patterns (-name, -iname) every
    file it deletes must match (`_find_names`).  Judged by Guard._judge_found."""

    names: tuple[str, ...]

    def __new__(cls, text: str, *, names: tuple[str, ...] = ()) -> _Found:
        start = super().__new__(cls, text)
        start.names = names
        return start


class _Pathspec(str):
    """A path argument of git (`git rm`, `git checkout`, `git restore`…) as git reads it, its
    magic taken off (gitglossary, "pathspec"): whether it is read from the top of the work
    tree (`:/`, `:(top)`) and whether its `*`, `?` and `[…]` are wildcards (not with
    `:(literal)`).  Judged by Guard._judge_pathspec."""

    top: bool
    wild: bool
    spared: tuple[str, ...]  # what `git clean` leaves: its -e patterns, its exclusions
    #: a name git writes only when it lies in the folder git runs in (git apply in a
    #: subfolder skips the others)
    within: bool

    def __new__(
        cls,
        text: str,
        *,
        top: bool = False,
        wild: bool = False,
        spared: tuple[str, ...] = (),
        within: bool = False,
    ) -> _Pathspec:
        spec = super().__new__(cls, text)
        spec.top = top
        spec.wild = wild
        spec.spared = spared
        spec.within = within
        return spec


#: The one-character magic of a pathspec's short form, after its leading `:`.
_SHORT_MAGIC: Final = {"/": "top", "!": "exclude", "^": "exclude"}


def _pathspec(word: str) -> _Pathspec | None:
    """The pathspec git reads in word; None for an exclusion (`:!x`, `:(exclude)x`), which
    names what git leaves alone."""
    magic: set[str] = set()
    text = word
    if word.startswith(":("):
        close = word.find(")")
        if close > 0:
            magic = {m.split(":", 1)[0].strip() for m in word[2:close].split(",")}
            text = word[close + 1 :]
    elif word.startswith(":"):
        i = 1
        while i < len(word) and word[i] in _SHORT_MAGIC:
            magic.add(_SHORT_MAGIC[word[i]])
            i += 1
        text = word[i + 1 :] if word[i : i + 1] == ":" else word[i:]
    if "exclude" in magic:
        return None
    # git takes `.` and `..` textually (`*/../.gitmem/INDEX.md` is .gitmem/INDEX.md)
    text = os.path.normpath(text) if text else "."
    wild = "literal" not in magic and any(c in text for c in _GLOB_CHARS)
    return _Pathspec(text, top="top" in magic, wild=wild)


def _wild_tokens(pattern: str) -> list[str]:
    """git's wildcard pattern as tokens: `*` (a run of them is one), `?`, a closed `[…]`
    class (`[^…]` written `[!…]`), or one literal character after a backslash (a backslash
    in the pattern escapes the next character)."""
    tokens: list[str] = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "*":
            if tokens[-1:] != ["*"]:
                tokens.append("*")
        elif char == "?":
            tokens.append("?")
        elif char == "[" and (close := pattern.find("]", i + 2)) > 0:
            inner = pattern[i + 1 : close]
            tokens.append("[!" + inner[1:] + "]" if inner[:1] == "^" else f"[{inner}]")
            i = close
        else:
            if char == "\\" and i + 1 < len(pattern):
                i += 1
            tokens.append("\\" + pattern[i])
        i += 1
    return tokens


def _accepts(token: str, char: str) -> bool:
    if token in ("*", "?"):
        return True
    if token.startswith("\\"):
        return token[1:] == char
    return fnmatch.fnmatchcase(char, token)


def _after(
    tokens: Sequence[str], text: str, start: set[int] | None = None
) -> tuple[set[int], bool]:
    """The positions in tokens after reading text from start (the pattern's beginning when
    None; a `*` matches any run of characters, `/` and a leading dot too, as git matches a
    pathspec without FNM_PATHNAME), and whether the whole pattern matched text or a folder
    at its start (git takes a folder for all it holds)."""
    end = len(tokens)

    def past_stars(states: set[int]) -> set[int]:
        return states | {s + 1 for s in states if s < end and tokens[s] == "*"}

    states = past_stars({0} if start is None else start)
    for char in text:
        if char == "/" and end in states:
            return states, True
        states = past_stars(
            {s + (tokens[s] != "*") for s in states if s < end and _accepts(tokens[s], char)}
        )
        if not states:
            return states, False
    return states, end in states


def _may_end(tokens: Sequence[str], states: set[int], suffix: str) -> bool:
    """Whether, from one of states, the rest of the pattern matches some text ending with
    suffix: past the pattern's last `*`, its tokens must take the end of suffix."""
    star = max((i for i, token in enumerate(tokens) if token == "*"), default=-1)
    for s in sorted(states, reverse=True):
        tail = tokens[max(s, star + 1) :]
        if s > star and len(tail) < len(suffix):
            continue  # no `*` left: the rest matches text of its own length only
        shared = min(len(tail), len(suffix))
        ends = zip(tail[len(tail) - shared :], suffix[len(suffix) - shared :], strict=True)
        if all(_accepts(token, char) for token, char in ends):
            return True
        if s <= star:
            return False  # every state before the last `*` has this same tail
    return False


def _as_regex(tokens: Sequence[str]) -> re.Pattern[str]:
    """The tokens as one regular expression (fnmatch's, whose `*` matches `/` too)."""
    return re.compile(fnmatch.translate("".join(_fnmatch_token(token) for token in tokens)))


def _fnmatch_token(token: str) -> str:
    """A token as fnmatch spells it: a literal `*`, `?` or `[` inside a class of its own."""
    if not token.startswith("\\"):
        return token
    return f"[{token[1]}]" if token[1] in "*?[" else token[1]


# ---------------------------------------------------------------------------------------------
# Bash


#: A simple command's standard input (_simple_commands).
_Fed = tuple[str, str] | None

_PUNCTUATION = ";&|()<>\n"
#: What a word begins after: a `#` there opens a comment (elsewhere, as in `a#b`, it is text).
_WORD_ENDS = frozenset(" \t\r" + _PUNCTUATION)
#: What ends an unquoted word, for the word after a here-document operator.
_WORD_BREAKS: Final = frozenset(" \t\r\n;&|()<>")


def _heredoc_word(script: str, i: int) -> tuple[str, bool, int]:
    """The delimiter word of a here-document whose operator ends at i (blanks skipped), as
    the shell reads it: its quotes and backslashes taken off, whether any quoted it (then
    the body is not expanded), and where it ends; '' when there is none (a syntax error)."""
    while i < len(script) and script[i] in " \t":
        i += 1
    word: list[str] = []
    quoted = False
    while i < len(script) and script[i] not in _WORD_BREAKS:
        c = script[i]
        if c in "'\"":
            close = script.find(c, i + 1)
            if close < 0:
                return "", False, i  # left open: no word the shell would take
            word.append(script[i + 1 : close])
            quoted, i = True, close + 1
            continue
        if c == "\\" and i + 1 < len(script):
            word.append(script[i + 1])
            quoted, i = True, i + 2
            continue
        word.append(c)
        i += 1
    return "".join(word), quoted, i


#: What the reading of here-document operators stops at (_heredocs): plain text between
#: these is passed in one step.
_HEREDOC_SPECIAL = re.compile(r"[\\'\"`$()#<\n]")


def _heredocs(script: str) -> list[tuple[int, int, int, str, bool]]:
    """Each here-document body the shell reads in script, in order, as (where the line
    that opened it ends, where its body begins, where its delimiter's line ends or the
    script does, its text, whether the body is taken as written: a quoted delimiter).
    Its operator is a `<<` outside quotes, comments, arithmetic (`$((1<<2))`) and
    backquotes (where the shell ends the here-document at the closing one and runs the
    lines after it), not escaped, not a here-string's `<<<`, followed by a word; its body
    begins after the line break that ends that line (one in quotes, or escaped, does not),
    and ends at a line that is its delimiter, exactly (with `<<-`, its leading tabs
    aside), as the shell ends it.  A `<<` the reading is unsure of opens none: the lines
    after it are then read as commands, a command judged more, never one less."""
    found: list[tuple[int, int, int, str, bool]] = []
    pending: list[tuple[str, bool, bool]] = []  # delimiter, quoted, `<<-`
    # one frame per open substitution or arithmetic: [kind, quote]; kind "" for the script
    frames: list[list[str]] = [["", ""]]
    i = 0
    n = len(script)
    while i < n:
        frame = frames[-1]
        if frame[1] == "'":
            close = script.find("'", i)
            i = n if close < 0 else close + 1
            frame[1] = ""
            continue
        special = _HEREDOC_SPECIAL.search(script, i)
        if special is None:
            break
        i = special.start()
        c = script[i]
        if c == "\\":
            i += 2
            continue
        if frame[1] == '"':
            if c == '"':
                frame[1] = ""
            elif script.startswith("$(", i) and not script.startswith("$((", i):
                frames.append(["$(", ""])
                i += 1
            i += 1
            continue
        if frame[0] == "((":
            if script.startswith("))", i):
                frames.pop()
                i += 1
            i += 1
            continue
        if c == "\n" and pending:  # the bodies follow the line that opened them
            line_end = i
            position = i + 1
            for delimiter, quoted, tabs in pending:
                lines: list[str] = []
                while position <= n:
                    close = script.find("\n", position)
                    close = n if close < 0 else close
                    line = script[position:close]
                    position = close + 1
                    if (line.lstrip("\t") if tabs else line) == delimiter:
                        break
                    lines.append(line.lstrip("\t") if tabs else line)
                text = "\n".join(lines)
                found.append((line_end, i + 1, min(position - 1, n), text, quoted))
            pending = []
            i = min(position - 1, n)  # the line break after the last delimiter
            if i >= n:
                break
            i += 1
            continue
        if c in "'\"":
            frame[1] = c
        elif c == "#" and (i == 0 or script[i - 1] in _WORD_ENDS):
            close = script.find("\n", i)
            i = n if close < 0 else close
            continue
        elif script.startswith("$((", i) or script.startswith("((", i):
            frames.append(["((", ""])
            i += 3 if c == "$" else 2
            continue
        elif script.startswith("$(", i):
            frames.append(["$(", ""])
            i += 2
            continue
        elif c == ")" and frame[0] == "$(":
            frames.pop()
        elif c == "`":
            if frame[0] == "`":
                frames.pop()
            else:
                frames.append(["`", ""])
        elif script.startswith("<<<", i):  # a here-string: its word is read as text
            i += 3
            continue
        elif script.startswith("<<", i) and all(kind != "`" for kind, _ in frames):
            dash = script.startswith("<<-", i)
            word, quoted, after = _heredoc_word(script, i + 2 + dash)
            if word:
                pending.append((word, quoted, dash))
                i = after
                continue
            i += 2
            continue
        i += 1
    return found


def _strip_heredocs(
    command: str, bodies: list[str | None] | None = None, raws: list[str] | None = None
) -> str:
    """The command without its here-document bodies (text fed to a command, never run), but
    for the command substitutions of a body whose delimiter is unquoted, which the shell
    runs as it expands the body: each is kept as a command of its own (`: $(…)`), on the
    line after the one that opened the here-document.  Each body goes to bodies, as the
    command reads it; None for one the shell expands (`$` or a backquote in a body whose
    delimiter is unquoted), whose text the guard does not know, and to raws as written (a
    script a shell reads from it is read as a command is, expansions and all).  The bodies
    are those the shell reads (_heredocs): `echo "<<EOF"`, a comment's `<<EOF`,
    `$((1<<X))` and `<<<EOF` open none."""
    if "<<" not in command:
        return command
    out: list[str] = []
    room = HEREDOC_RUNS
    done = 0  # what of the command is copied, or skipped as a body
    for line_end, start, end, text, quoted in _heredocs(command):
        if start > done:  # the first body after its line: the line, then what it runs
            out.append(command[done:line_end])
        if bodies is not None:
            expanded = not quoted and any(c in text for c in "$`")
            bodies.append(None if expanded else text + "\n")
        if raws is not None:
            raws.append(text + "\n")
        body = text if not quoted and room > 0 else ""
        runs = _lift_substitutions(body, text=True, most=room)[1] if body else []
        for run in runs:
            room -= len(run) + 5
            if room >= 0:
                out.append(f"\n: $({run})")
        done = end
    out.append(command[done:])
    return "".join(out)


def _strip_comments(script: str) -> str:
    """The script without its comments, as the shell reads them: from a `#` that begins a
    word, outside quotes, to the end of its line, whatever the comment holds (in `# don't`
    the apostrophe opens no quote; `\\` at its end continues nothing)."""
    kept = []
    quote = ""
    start = i = 0
    while i < len(script):
        c = script[i]
        if quote:
            if c == quote:
                quote = ""
            elif c == "\\" and quote == '"':
                i += 1
        elif c == "\\":
            i += 1
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or script[i - 1] in _WORD_ENDS):
            kept.append(script[start:i])
            end = script.find("\n", i)
            i = start = len(script) if end < 0 else end
            continue
        i += 1
    kept.append(script[start:])
    return "".join(kept)


#: ANSI-C quoting, `$'…'`, and the escapes the shell decodes in it.
_ANSI_C = re.compile(r"\$'((?:[^'\\]|\\.)*)'", re.S)
_ESCAPE = re.compile(
    r"\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)", re.S
)
_ESCAPED: Final = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b"}


#: A locale-translated string's `$"` (not an escaped `\$` before a quote).
_LOCALE = re.compile(r'(?<!\\)\$"')


def _ansi_c(script: str) -> str:
    """The script with each `$'…'` as the plain single-quoted word the shell makes of it
    (`$'\\x2egitmem'` is `.gitmem`), and each `$"…"` as the double-quoted one (the locale's
    translation of a text no catalog holds is the text: `.git$""mem` is `.gitmem`): the
    splitter knows neither quoting, and read `$` and the escapes as text."""
    if '$"' in script:
        script = _LOCALE.sub('"', script)
    if "$'" not in script:
        return script
    return _ANSI_C.sub(lambda m: shlex.quote(_ESCAPE.sub(_unescaped, m.group(1))), script)


def _unescaped(found: re.Match[str]) -> str:
    """One escape of `$'…'` decoded; a code point no path can hold (a surrogate, past
    U+10FFFF) as U+FFFD, as the client writes one."""
    escape = found.group(1)
    if escape[0] in "xuU" and len(escape) > 1:
        code = int(escape[1:], 16)
    elif escape[0] in "01234567":
        code = int(escape, 8)
    elif escape[0] == "c" and len(escape) > 1:
        code = ord(escape[1]) & 0x1F
    else:
        return _ESCAPED.get(escape, escape)
    return "\ufffd" if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF else chr(code)


def _split(script: str) -> tuple[list[str], list[str]] | None:
    """The words and operators of a script whose here-document bodies are already gone (to
    strip them twice would take the lines after a here-document's end for another body),
    comments left out, and the commands its substitutions run: each outermost `$(…)` or
    `` `…` `` that no single quote makes text is a word SUBSTITUTION.format(n) among them,
    its body the nth of the second list (`_substituted`)."""
    lifted, bodies = _lift_substitutions(_ansi_c(_strip_comments(script)))
    lexer = shlex.shlex(_mark_quoted(lifted), posix=True, punctuation_chars=_PUNCTUATION)
    lexer.whitespace_split = True
    lexer.whitespace = " \t\r"  # newlines separate commands: they are punctuation here
    lexer.commenters = ""
    try:
        return list(lexer), bodies
    except ValueError:  # unbalanced quotes: the shell would not run it either
        return None


#: What follows, in the script the splitter reads, an operator's character that a quote or a
#: backslash makes text (`_mark_quoted`): a private-use character no command means anything
#: by, taken off each word again (`_simple_commands`).
_QUOTED: Final = "\ue001"


def _mark_quoted(script: str) -> str:
    """The script with _QUOTED after each character of an operator (`;&|()<>`, a line
    break) that a quote or a backslash makes text, as the shell reads them (in single quotes
    all is text; in double quotes a backslash escapes the next character; outside quotes
    too, and a backslash before a line break joins two lines).  The splitter gives a quoted
    `;` as the word `;`, the same as the operator: `rm ';' .gitmem/INDEX.md` was read as
    two commands, and `find … \\( -name x \\)` as three; marked, such a word is a word."""
    if not any(c in script for c in "'\"\\"):
        return script
    out: list[str] = []
    quote = ""
    i = 0
    while i < len(script):
        c = script[i]
        out.append(c)
        text = False  # whether c is a quoted or escaped character
        if c == "\\" and quote != "'" and i + 1 < len(script):
            i += 1
            c = script[i]
            out.append(c)
            text = c != "\n" or bool(quote)
        elif quote:
            quote = "" if c == quote else quote
            text = bool(quote)
        elif c in "'\"":
            quote = c
        if text and c in _PUNCTUATION:
            out.append(_QUOTED)
        i += 1
    return "".join(out)


#: What stands for a command substitution's body in a lifted script (`_lift_substitutions`):
#: short, since the splitter's time grows with the script's length, and of private-use
#: characters no command means anything by (one that holds them may have a body judged
#: twice, never one less).
SUBSTITUTION: Final = "\ue000{}\ue000"
_SUBSTITUTED = re.compile("\ue000([0-9]+)\ue000")
#: The characters that open, close or quote a substitution.
_SPECIAL = re.compile(r"[\\`'\"()$]")


def _lift_substitutions(
    script: str, *, text: bool = False, most: int | None = None
) -> tuple[str, list[str]]:
    """The script with each outermost command substitution, `$(…)` or `` `…` ``, or process
    substitution, `<(…)` or `>(…)`, replaced by the word SUBSTITUTION.format(n), and their
    bodies: the shell runs them, command substitutions in double quotes too (`echo "$(rm
    x)"`, `` echo `rm x` ``), where the splitter would read one word of text.
    One pass, with a stack rather than recursion (a body nests any depth); `$((` is
    arithmetic, and a substitution left open is left as text.  With text, the script is a
    here-document's body, whose quotes are text (inside a substitution they quote again);
    with most, the reading stops once the bodies found hold more than that many characters."""
    out: list[str] = []
    bodies: list[str] = []
    # one frame per open substitution: [kind, where its body starts, quote, parentheses]
    frames: list[list[Any]] = [["", 0, "", 0]]
    held = counted = 0  # what the bodies found hold, and how many are counted
    i = 0
    while i < len(script):
        frame = frames[-1]
        if frame[2] == "'":  # to the quote that closes it
            i = script.find("'", i) + 1 or len(script)
            frame[2] = ""
            continue
        if most is not None and len(bodies) > counted:
            held += sum(map(len, bodies[counted:]))
            counted = len(bodies)
            if held > most:
                break
        found = _SPECIAL.search(script, i)  # past plain text in one step
        if found is None:
            break
        i = found.start()
        c = script[i]
        if c == "\\":
            i += 1
        elif c == "`" and frame[0] == "`":
            _close(frames, script, i, out, bodies)
        elif c == "`":
            frames.append(["`", i + 1, "", 0])
        elif script.startswith("$(", i) and not script.startswith("$((", i):
            frames.append(["$(", i + 2, "", 0])
            i += 1
        elif c == "(" and i and script[i - 1] in "<>" and not frame[2] and not text:
            frames.append(["<(", i + 1, "", 0])  # a process substitution, `<(…)` or `>(…)`
        elif c in "'\"" and text and len(frames) == 1:
            pass
        elif c == '"':
            frame[2] = "" if frame[2] == '"' else '"'
        elif c == "'" and not frame[2]:
            frame[2] = "'"
        elif frame[0] in ("$(", "<(") and not frame[2] and c == "(":
            frame[3] += 1
        elif frame[0] in ("$(", "<(") and not frame[2] and c == ")":
            if frame[3]:
                frame[3] -= 1
            else:
                _close(frames, script, i, out, bodies)
        i += 1
    out.append(script[frames[0][1] :])
    return "".join(out), bodies


def _close(
    frames: list[list[Any]], script: str, end: int, out: list[str], bodies: list[str]
) -> None:
    """Close the innermost open substitution, whose body ends at end; an outermost one is
    lifted out of the script (one nested deeper is part of its body, lifted when that is)."""
    kind, start = frames.pop()[:2]
    if len(frames) > 1:
        return
    top = frames[0]
    out.append(script[top[1] : start - len(kind)])
    body = script[start:end]
    # unquoted, its output is split into words of their own, but for `pwd`'s, one folder
    # the guard knows (_pwd), part of the word it is in: `$(pwd)/.gitmem`
    spaced = not top[2] and not _PWD.fullmatch(body)
    out.append(
        f" {SUBSTITUTION.format(len(bodies))} " if spaced else SUBSTITUTION.format(len(bodies))
    )
    bodies.append(body)
    top[1] = end + 1


def _substituted(words: Iterable[str], bodies: Sequence[str]) -> Iterator[str]:
    """The bodies of the substitutions these words hold (`_lift_substitutions`)."""
    for word in words:
        for n in _SUBSTITUTED.findall(word):
            if int(n) < len(bodies):
                yield bodies[int(n)]


def _is_punctuation(token: str) -> bool:
    return bool(token) and all(c in _PUNCTUATION for c in token)


class _Redirect(str):
    """An output redirection's target, with its operator (`>`, `>>`, `2>`, `&>`…)."""

    op: str

    def __new__(cls, text: str, op: str) -> _Redirect:
        target = super().__new__(cls, text)
        target.op = op
        return target


class _Written(str):
    """A file a command writes whole with text the guard knows: what `cat > FILE <<'EOF'`
    writes, the here-document's body (_heredoc_written).  A patch or list read from it later
    in the same script is read as that text (_earlier)."""

    text: bytes

    def __new__(cls, path: str, text: bytes) -> _Written:
        written = super().__new__(cls, path)
        written.text = text
        return written


def _simple_commands(tokens: list[str]) -> Iterator[tuple[list[str], list[str], _Fed]]:
    """(words, redirection targets, standard input) of each simple command: its input is
    ("file", WORD) for `< WORD`, ("here", N) for the script's Nth here-document (from 0),
    ("string", WORD) for a here-string (`<<< WORD`), ("pipe", "") after `|` or `|&`,
    ("other", "") for another redirection of it (`<&3`), and None when it inherits the
    script's own.  A target is a _Redirect, which knows its operator."""
    words: list[str] = []
    targets: list[str] = []
    fed: _Fed = None
    heres = 0
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if _is_punctuation(token) and ">" in token:
            nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
            if nxt and not _is_punctuation(nxt) and not (token.endswith("&") and nxt.isdigit()):
                targets.append(_Redirect(nxt.replace(_QUOTED, ""), token))
                i += 1
        elif _is_punctuation(token) and "<" in token:
            nxt = tokens[i + 1].replace(_QUOTED, "") if i + 1 < len(tokens) else ""
            kind = {"<": "file", "<<": "here", "<<<": "string"}.get(token, "other")
            fed = (kind, nxt if kind in ("file", "string") else str(heres))
            heres += kind == "here"
            i += 1  # an input: the word after it is read, not written
        elif _is_punctuation(token):
            yield words, targets, fed
            words, targets = [], []
            fed = ("pipe", "") if token in ("|", "|&") else None
        else:
            words.append(token.replace(_QUOTED, ""))
        i += 1
    yield words, targets, fed


def _command_words(
    words: list[str], moves: list[str] | None = None, xargs: list[list[str]] | None = None
) -> list[str]:
    """The words from the command name on: prefixes, reserved words and assignments
    skipped; the folders a prefix runs the command in (`env -C DIR`, `env --chdir=DIR`,
    `sudo -D DIR`), in order, go to moves, and xargs's options, when it runs the command,
    to xargs.  What watch runs, and flock's -c command, are run by a shell: they come back
    as `sh -c COMMAND`."""
    i = 0
    run: str | None = None  # flock's -c or --command
    while i < len(words):
        word = words[i]
        prefix = os.path.basename(word)
        if "=" in word.split("/")[0] and not word.startswith("-") and word.index("=") > 0:
            i += 1  # VAR=value
        elif word in _RESERVED:
            i += 1
        elif word == "function":  # `function f { … }`: what follows its name is the body
            i += 2
        elif prefix in _RUNNERS_RUN - _RUNNERS and words[i + 1 : i + 2] == ["run"]:
            i += 1  # `uv run CMD`, `poetry run CMD` (pipx runs a package): run as a prefix
        elif prefix in _PREFIXES and (prefix != "run" or i > 0):
            valued = _PREFIXES[prefix]
            i += 1
            if prefix == "xargs" and xargs is not None:
                xargs.append(words[i:])  # cut to its options below
                options = len(xargs) - 1
            while i < len(words) and words[i].startswith("-"):
                given = words[i]
                option = given.lstrip("-")
                i += 1  # the prefix's own option, and the word after it when that is its value
                if given.startswith("--"):
                    name, equals, value = option.partition("=")
                    if (name == "chdir" and prefix in _CHDIR) or (
                        name == "command" and prefix == "flock"
                    ):
                        if not equals:
                            value = words[i] if i < len(words) else ""
                            i += 1
                        if name == "command":
                            run = value
                        else:
                            _moved(moves, value)
                    elif name == "split-string" and prefix == "env":
                        if not equals:
                            value = words[i] if i < len(words) else ""
                            i += 1
                        words = [*words[:i], *_split_string(value), *words[i:]]
                    elif not equals and name in _PREFIX_LONG.get(prefix, ()):
                        i += 1  # its value, the next word (`timeout --signal KILL 5 rm …`)
                    continue
                at = next((j for j, c in enumerate(option) if c in valued), None)
                if at is None:
                    continue
                value = option[at + 1 :]
                if not value:
                    value = words[i] if i < len(words) else ""
                    i += 1
                if option[at] == _CHDIR.get(prefix):
                    _moved(moves, value)
                elif option[at] == "c" and prefix == "flock":
                    run = value
                elif option[at] == "S" and prefix == "env":  # the words it runs, in one
                    words = [*words[:i], *_split_string(value), *words[i:]]
            if prefix == "xargs" and xargs is not None:
                xargs[options] = xargs[options][: len(xargs[options]) - (len(words) - i)]
            if prefix in ("timeout", "flock", "chrt") or (
                prefix == "taskset" and not any("p" in w for w in words[1:i] if w[:1] == "-")
            ):
                i += 1  # its duration, the file it locks, a priority, a CPU mask
            tail = words[i] if prefix == "flock" and i < len(words) else ""
            if tail in ("-c", "--command"):  # `flock FILE -c COMMAND`
                run = words[i + 1] if i + 1 < len(words) else ""
            elif tail.startswith(("--command=", "-c")):
                run = tail.split("=", 1)[1] if tail.startswith("--") else tail[2:]
            if prefix == "watch":
                return ["sh", "-c", " ".join(words[i:])] if i < len(words) else []
            if run is not None:
                return ["sh", "-c", run]
        else:
            break
    return words[i:]


def _split_string(text: str) -> list[str]:
    """The words `env -S` (--split-string) makes of its value, which it runs with the words
    after it (`env -S 'rm -f' .gitmem/INDEX.md`); the text as one word when its quotes do
    not close."""
    try:
        return shlex.split(text)
    except ValueError:
        return [text]


def _moved(moves: list[str] | None, folder: str) -> None:
    if moves is not None and folder:
        moves.append(folder)


def _paths(args: Sequence[str]) -> list[str]:
    """The arguments that may be paths: options dropped, `--opt=value` values kept."""
    out = []
    after_dashes = False
    for arg in args:
        if after_dashes:
            out.append(arg)
        elif arg == "--":
            after_dashes = True
        elif arg.startswith("--") and "=" in arg:
            out.append(arg.split("=", 1)[1])
        elif not arg.startswith("-") or arg == "-":
            out.append(arg)
    return out


def _attached(args: Sequence[str]) -> list[str]:
    """What may be the value of a short option written in its word (`mktemp -p.gitmem/x`,
    `patch -o.gitmem/INDEX.md`): the rest of each cluster after each of its letters, before
    `--`, when it looks like a path (a `/` in it, or a leading `.` or `~`: `-p1` is no
    file in the folder it runs in)."""
    out: list[str] = []
    for arg in args:
        if arg == "--":
            break
        if arg.startswith("-") and not arg.startswith("--"):
            rests = (arg[k:] for k in range(2, len(arg)) if arg[k - 1].isalpha())
            out.extend(rest for rest in rests if "/" in rest or rest.startswith((".", "~")))
    return out


def bash_targets(
    command: str, cwd: str, depth: int = 0, written: list[tuple[str, str]] | None = None
) -> Iterator[tuple[str, str, bool]]:
    """(path, folder it is relative to, whether it is a name removed rather than a file
    written) of every write the command visibly makes; written: the writes of the script
    it is part of so far (a patch file one of them writes is not read as it is now)."""
    heres: list[str | None] = []
    raws: list[str] = []
    script = _strip_heredocs(command, heres, raws)
    yield from _script_targets(script, cwd, depth, _Script(heres, written, raws))


class _Script:
    """What a script's commands know of the script around them: the text of its
    here-documents (None for one the shell expands; raws: as written), and the writes it
    makes before them, as (path, folder) in the order it makes them."""

    __slots__ = ("heres", "raws", "written")

    def __init__(
        self,
        heres: list[str | None] | None,
        written: list[tuple[str, str]] | None = None,
        raws: list[str] | None = None,
    ) -> None:
        self.heres = heres
        self.written = [] if written is None else written
        self.raws = raws


def _script_targets(
    script: str, cwd: str, depth: int, seen: _Script | None = None
) -> Iterator[tuple[str, str, bool]]:
    """bash_targets of a command whose here-document bodies are already stripped (given in
    seen, with what the script around it wrote before it)."""
    seen = _Script(None) if seen is None else seen
    for found in _targets(script, cwd, depth, seen):
        seen.written.append((found[0], found[1]))
        yield found


def _targets(script: str, cwd: str, depth: int, seen: _Script) -> Iterator[tuple[str, str, bool]]:
    """_script_targets' writes, before they are recorded as written."""
    split = _split(script) if depth <= 3 else None
    if split is None:
        return
    tokens, bodies = split
    here = before = cwd
    # the substitutions' bodies, by the folder they run in: read as one script per folder
    # (thousands of short ones cost one split, not thousands)
    substituted: dict[str, list[str]] = {}
    aliases: dict[str, list[str]] = {}
    previous: list[str] = []  # the words of the command before, feeding a pipe
    previous_fed: _Fed = None  # and its own standard input
    # whether each here-document operator is one of seen.heres, in order (a body the
    # stripping found in a substitution, or a here-string it took for one, breaks that)
    known = seen.heres is not None and tokens.count("<<") == len(seen.heres)
    variables: dict[str, list[str]] = {}  # what the script set them to, as far as it spells
    for words, redirected, fed in _simple_commands(tokens):
        substituted.setdefault(here, []).extend(_substituted([*words, *redirected], bodies))
        words = _pwd(words, bodies, here)
        _assigned(words, variables)
        # `x=.gitmem; rm $x/INDEX.md`, `for f in …; do rm "$f"; done`, and what the shell
        # sets itself: `$PWD/.gitmem`, `$(pwd)/.gitmem`, `$HOME` as `~`
        expanding = _shell_set(variables, here)
        words = _with_variables(words, expanding)
        redirected = [
            _Redirect(each, getattr(target, "op", ">"))
            for target in redirected
            for each in _with_variables(_pwd([target], bodies, here), expanding)
        ]
        moves: list[str] = []
        xargs: list[list[str]] = []
        words = _command_words(_aliased(words, aliases), moves, xargs)
        text = _heredoc_written(words, fed, seen) if known else None
        for target in redirected:  # the shell opens them, where it is
            whole = text is not None and getattr(target, "op", "") in (">", ">|", "1>")
            yield (_Written(target, text) if text is not None and whole else target), here, False
        piped = fed == ("pipe", "")
        upstream, previous = (previous if piped else []), words
        upstream_fed, previous_fed = (previous_fed if piped else None), fed
        if not words:
            continue
        there = here  # where the command itself runs
        for folder in moves:
            there = os.path.join(there, _home(folder))
        name, args = os.path.basename(words[0]), words[1:]
        name = "tar" if name in ("gtar", "bsdtar") else name
        if (decided := _decision(name, args)) is not None:
            yield _Decision(decided), there, False
        if xargs:  # the words its input adds to the command
            yield from _xargs_targets(
                xargs[-1], words, fed, upstream, here, there, depth, seen, upstream_fed
            )
        if name in ("sed", "gsed"):  # the files its script's w commands write
            written = _sed_writes(args, there, seen)
            if written is None:  # a script it cannot read: any file, anywhere
                why = "its -f script cannot be read, or is written earlier in the command"
                yield _Unseen(os.sep, command="sed -f", why=why, source="script"), there, True
            for path in written or ():
                yield path, there, False
            yield from _programmed(name, _sed_runs(args, there, seen), there, depth, seen)
        if name in _AWKS:  # what its program writes (`print > "FILE"`) and runs
            yield from _programmed(name, _awk_writes(args, there, seen), there, depth, seen)
        if _PERL.fullmatch(name):  # what a one-liner writes (`perl -e 'unlink …'`) and runs
            yield from _programmed(name, _perl_writes(args), there, depth, seen)
        if name in _EX_EDITORS:  # what its commands write (`vim -c 'w FILE'`) and run
            program = _editor_writes(name, args, fed, here, there, seen)
            yield from _programmed(name, program, there, depth, seen)
        if name == "script":  # its typescript, and the logs it is told to keep
            yield from ((path, there, False) for path in _typescripts(args))
        if name in ("pushd", "popd") and "-n" in args[: args.index("--") if "--" in args else None]:
            pass  # `pushd -n DIR`, `popd -n`: the stack changes, not the folder
        elif name in ("cd", "pushd", "popd") and not moves:
            dest = _paths(args)
            if dest[:1] == ["-"] or (name != "cd" and not dest) or name == "popd":
                here, before = before, here  # the folder it was in before
            else:
                before, here = here, os.path.join(here, _home(dest[0] if dest else "~"))
        elif (
            inner := _command_string(name, args)
            or (
                _stdin_script(args, fed, upstream, upstream_fed, seen) if name in _READERS else None
            )
        ) is not None:  # `bash -c CMD`, `eval …`; `bash <<< CMD`, `echo CMD | sh`
            yield from bash_targets(inner, there, depth + 1, seen.written)
        elif (
            name in _WRITERS
            or (name in _IN_PLACE and _in_place(name, args))
            or (name in _COMPRESSORS and not _to_stdout(args))
        ):
            short = _REFERENCED.get(name)
            read = _option_values(args, short, ("--reference",)) if short is not None else []
            if name == "patch":  # its patch, -i or its second operand, is read
                read = [
                    *_option_values(args, "i", ("--input",)),
                    *_operands(args, *_PATCH_VALUED)[1:2],
                ]
            for path in [*_paths(args), *_attached(args)]:
                if path in read:  # `touch -r REF FILE`: REF is read
                    read.remove(path)
                else:
                    yield path, there, False
            if name == "patch" and _patches_where_it_runs(args):
                yield from _patched("patch", args, fed, here, there, seen)
        elif name in _REMOVERS:
            kept = _destination(name, args) if name == "mv" else []
            removed = _paths(args)
            for path in kept:  # mv's destination is written, not removed
                if path in removed:
                    removed.remove(path)
            for path in removed:
                yield path, there, True
            for path in kept:  # as a write: across file systems mv copies
                yield path, there, False
            for path in _placed(name, removed, kept, there):
                yield path, there, False
        elif name in _COPIERS:
            destination = _destination(name, args)
            for path in destination:
                yield path, there, False
            sources = [p for p in _paths(args) if p not in destination]
            for path in _placed(name, sources, destination, there):
                yield path, there, False
            if name == "ln" or (name == "cp" and _makes_links(args)):
                yield from _linked_to(args, destination, there)
            if name == "rsync":
                for path in _rsync_removed(args, destination):
                    yield path, there, True
        elif name in ("split", "csplit"):
            for path in _pieces(name, args):
                yield path, there, False
        elif name == "xxd" and {"-r", "-revert"} & set(args):  # `xxd -r IN OUT`: OUT
            for path in _operands(args, "cglos", ())[1:2]:
                yield path, there, False
        elif name == "uniq":  # `uniq IN OUT`: its second operand
            operands = _operands(args, "fsw", ("--skip-fields", "--skip-chars", "--check-chars"))
            for path in operands[1:2]:
                yield path, there, False
        elif name == "sd" and not {"-p", "--preview"} & set(args):
            # `sd FIND REPLACE FILE…` edits its files in place, unless it only previews
            for path in _operands(args, "nf", ("--max-replacements", "--flags"))[2:]:
                yield path, there, False
        elif name == "dd":
            for arg in args:
                if arg.startswith("of="):
                    yield arg[3:], there, False
        elif name == "tar" and _archives(args):
            for path in _tar_file(args):
                yield path, there, False
        elif name == "zip":
            for path in _paths(args)[:1]:  # the archive; the files after it are read
                yield path, there, False
        elif name in _OUTPUT_OPTIONS and (name != "tar" or _extracts(args)):
            named = _option_values(args, *_OUTPUT_OPTIONS[name])
            if not named and name in ("tar", "unzip"):
                named = ["."]  # it extracts into the folder it runs in
            for path in named:
                yield path, there, False
            if name in ("tar", "unzip"):  # and the files its archive names, there
                yield from _extracted(name, args, named[-1], fed, here, there, seen)
            if name in ("curl", "wget"):  # and the files named after what it downloads
                yield from _downloaded(name, args, named, there)
        elif name in _OTHER_ARCHIVERS:
            yield from _archivers(name, args, there)
        elif name == "parallel":
            yield from _parallel(args, fed, upstream, here, there, depth, seen)
        elif name.startswith("python") and (extract := _python_extracts(args)) is not None:
            kind, archive, folder = extract  # `python -m zipfile -e A DIR`: as unzip, tar
            yield folder, there, False
            given = [archive] if kind == "unzip" else ["-x", "-f", archive]
            yield from _extracted(kind, given, folder, fed, here, there, seen)
        elif name == "find":
            starts, deleted, runs = _found(args)
            for i, arg in enumerate(args[:-1]):  # `-fprint FILE`…: the list it writes
                if arg in _FIND_WRITES and (i == 0 or args[i - 1] not in _FIND_WRITES):
                    yield args[i + 1], there, False
            for start in starts if deleted is not None else ():
                yield _Found(start, names=deleted or ()), there, True
            if len(starts) * len(runs) > FIND_RUNS_READ:  # what they run on taken as written
                runs = []
                for start in starts:
                    yield start, there, False
            for run, names in runs:  # `{}` stands for what it finds: a starting point, or below
                command = [s for w in run for s in ([w] if "{}" not in w else _each(w, starts))]
                nested = bash_targets(shlex.join(command), there, depth + 1, seen.written)
                for target, where, gone in nested:
                    if target in starts:  # what it finds there, or below: judged as -delete's
                        yield _Found(target, names=names), where, True
                    else:
                        yield target, where, gone
        elif name == "git" and args:
            sub = _git_subcommand(args, there)
            if sub is not None and sub[0] in _GIT_OUTPUTS:  # `git archive -o FILE`
                for path in _option_values(sub[1], "o", ("--output", "--output-directory")):
                    yield path, sub[2], False
            if sub is not None and sub[0] in _GIT_WRITERS:
                whole = sub[0] == "rm" or _from_revision(sub[0], sub[1])
                for path in _paths(sub[1]):
                    spec = _pathspec(path)
                    if spec is not None:
                        yield spec, sub[2], whole
            if sub is not None and sub[0] in ("read-tree", "checkout-index"):
                for spec, gone in _git_from_index(sub[0], sub[1]):
                    yield spec, sub[2], gone
            if sub is not None and sub[0] in ("apply", "am"):
                yield from _patched(f"git {sub[0]}", sub[1], fed, here, sub[2], seen)
            if sub is not None:  # `git reset --hard`, `git clean -fd`…: the work tree
                for spec in _git_replaced(sub[0], sub[1], sub[2]):
                    yield spec, sub[2], True
                for path in _git_made(sub[0], sub[1]):  # `git clone URL DIR`…
                    yield path, sub[2], False
    for folder, run in substituted.items():
        if run:
            yield from bash_targets("\n".join(run), folder, depth + 1, seen.written)


#: A variable's use in a word: `$NAME` or `${NAME}`.
_VARIABLE = re.compile(r"\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})")
#: A variable's use with a word of its own: `${NAME:-WORD}`, `${NAME=WORD}`, `${NAME:+WORD}`.
_DEFAULTED = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(:?[-=+])([^{}]*)\}")
#: Builtins whose words are assignments (`export X=1`), or that declare before assigning.
_DECLARERS: Final = {"export", "local", "declare", "typeset", "readonly"}
#: The most words a variable's uses are expanded into, in one command.
MAX_EXPANDED: Final = 256


def _assigned(words: Sequence[str], variables: dict[str, list[str]]) -> None:
    """Record what a simple command sets variables to, as far as the guard can tell:
    `NAME=VALUE` words (alone, or after export, local…), and a for loop's words (`for NAME
    in WORDS`, each a value NAME takes; `$@` and the like left as they are).  A value that
    uses a variable takes what the guard knows of it; one it cannot know forgets it.  A
    variable set again keeps its values before too (a branch or a subshell may have set
    either: each is judged)."""
    while words[:1] and words[0] in _RESERVED:  # `then x=…`, `do x=…`
        words = words[1:]
    if words[:1] == ["for"] and len(words) >= 3 and words[2] == "in":
        values = _with_variables(words[3:], variables)
        variables[words[1]] = _union(variables.get(words[1], []), values)
        return
    start = 1 if words[:1] and words[0] in _DECLARERS else 0
    for word in words[start:]:
        name, equals, value = word.partition("=")
        if not equals or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            break  # the command after the assignments
        values = _with_variables([value], variables)
        if any("\ue000" in each for each in values):
            variables.pop(name, None)  # `x=$(…)`: its output, unknown
        else:
            variables[name] = _union(variables.get(name, []), values)


def _shell_set(variables: dict[str, list[str]], here: str) -> dict[str, list[str]]:
    """The variables a word may use as the guard knows them: those the script set, and
    those the shell sets itself to a folder the guard knows (PWD, the folder the command
    runs in, which `cd` changes; HOME, what `~` is), each with what the script set it to
    too.  Without them `echo x > $PWD/.gitmem/INDEX.md` named no memory path."""
    shell = {"PWD": here, "HOME": _home("~")}
    return {
        **variables,
        **{name: _union(variables.get(name, []), [value]) for name, value in shell.items()},
    }


#: A command substitution's body that prints the folder it runs in (`$(pwd)`, `` `pwd -P` ``).
_PWD: Final = re.compile(r"\s*pwd(?:\s+-[LP])?\s*")


def _pwd(words: Sequence[str], bodies: Sequence[str], here: str) -> list[str]:
    """words with each substitution whose body is `pwd` replaced by the folder it prints,
    here (`echo x > "$(pwd)/.gitmem/INDEX.md"`): the guard knows what it outputs, as it does
    `~+`; `pwd -P` resolves links, which the guard's own resolving does too."""

    def folder(found: re.Match[str]) -> str:
        n = int(found.group(1))
        return here if n < len(bodies) and _PWD.fullmatch(bodies[n]) else found.group(0)

    return [_SUBSTITUTED.sub(folder, word) if "\ue000" in word else word for word in words]


def _union(before: Sequence[str], values: Sequence[str]) -> list[str]:
    """before and values, each once, at most MAX_EXPANDED."""
    return list(dict.fromkeys([*before, *values]))[:MAX_EXPANDED]


def _with_variables(words: Sequence[str], variables: dict[str, list[str]]) -> list[str]:
    """words with each use of a variable the script set replaced by its values (a word
    using one that holds several becomes one word per value, as a for loop's do); a
    variable it did not set is left as written.  Past MAX_EXPANDED words, the rest of a
    word's values are not made (the first are judged)."""
    out: list[str] = []
    for word in words:
        made = [word]
        for _ in range(8):  # a value may use another variable
            if not any("$" in each for each in made):
                break
            made = [new for each in made for new in _expand_once(each, variables)][:MAX_EXPANDED]
        out.extend(made)
    return out


def _expand_once(word: str, variables: dict[str, list[str]]) -> list[str]:
    """The words one known variable's use in word makes (the first use found); a use with
    a word of its own (`${NAME:-WORD}`, `${NAME:=WORD}`, `${NAME:+WORD}`, without the colon
    too) makes that word as well as NAME's values, whether or not the script set NAME:
    `rm ${X:-.gitmem}/INDEX.md` removes the index wherever X is unset."""
    for found in _DEFAULTED.finditer(word):
        name, op, given = found.groups()
        values = [] if "+" in op else variables.get(name, [])
        head, tail = word[: found.start()], word[found.end() :]
        return [head + value + tail for value in _union(values, [given])]
    for found in _VARIABLE.finditer(word):
        name = found.group(1) or found.group(2)
        if name in variables:
            head, tail = word[: found.start()], word[found.end() :]
            return [head + value + tail for value in variables[name]] or [head + tail]
    return [word]


def _decisions(script: str, depth: int) -> Iterator[str]:
    """The `gitmem admit` and `gitmem refuse` commands a script runs (here-document bodies
    already stripped): a person's decisions.  `gitmem admit --auto` is not one: it admits only
    what both settings files let an audit admit without a person; nor is asking for help."""
    split = _split(script) if depth <= 3 else None
    if split is None:
        return
    tokens, bodies = split
    substituted: list[str] = []
    aliases: dict[str, list[str]] = {}
    for words, redirected, _ in _simple_commands(tokens):
        substituted.extend(_substituted([*words, *redirected], bodies))
        words = _command_words(_aliased(words, aliases))
        name, args = (os.path.basename(words[0]), words[1:]) if words else ("", [])
        inner = _command_string(name, args)
        if inner is not None:
            yield from _decisions(_strip_heredocs(inner), depth + 1)
        elif (decided := _decision(name, args)) is not None:
            yield decided
    if substituted:
        yield from _decisions(_strip_heredocs("\n".join(substituted)), depth + 1)


def _decision(name: str, args: Sequence[str]) -> str | None:
    """`gitmem admit` or `gitmem refuse` when a command (its name, its arguments) is one,
    however it is spelled (`python -m gitmem`, `uvx gitmem`, `uv run gitmem`); else None.
    `gitmem admit --auto` is not one, nor asking for help."""
    if name.startswith("python") and (module := _python_module(args)) is not None:
        name, args = module
    elif name in _RUNNERS or (name in _RUNNERS_RUN and args[:1] == ["run"]):
        spelled = [i for i, arg in enumerate(args) if _GITMEM.fullmatch(arg)]
        while len(spelled) > 1 and spelled[1] == spelled[0] + 1:
            spelled.pop(0)  # `uvx --from gitmem gitmem admit`: the package, then the command
        name, args = ("gitmem", args[spelled[0] + 1 :]) if spelled else (name, args)
    if name != "gitmem":
        return None
    sub = next((arg for arg in args if not arg.startswith("-")), None)
    if sub in ("admit", "refuse") and not {"--auto", "--help", "-h"} & set(args):
        return f"gitmem {sub}"
    return None


#: A conversion of printf's format (`%s`, `%-5d`), or its `%%`.
_CONVERSION = re.compile(r"%[-+ #0-9.*]*[a-zA-Z%]")


def _printf(form: str, args: Sequence[str]) -> list[str]:
    """The names `printf FORMAT ARGS |` gives xargs: its output split as xargs splits it
    (blanks and newlines, or NULs), each conversion taking the next argument as it is, the
    format used again while arguments are left, as printf does (up to MAX_JUDGED characters
    of it, the arguments left then names of their own).  The format is printed too,
    not only the arguments: `printf .gitmem/INDEX.md | xargs rm` removed the index while
    the guard read no name at all."""
    unescaped = form.replace("\\n", "\n").replace("\\t", "\t").replace("\\0", "\0")
    taking = sum(c != "%%" for c in _CONVERSION.findall(unescaped))
    values = iter(args)
    rounds = max(1, -(-len(args) // taking)) if taking else 1  # the format used again
    most = max(1, MAX_JUDGED // max(1, len(unescaped)))  # a long format, many times: bounded

    def converted(found: re.Match[str]) -> str:
        return "%" if found[0] == "%%" else next(values, "")

    out = [_CONVERSION.sub(converted, unescaped) for _ in range(min(rounds, most))]
    text = "\n".join(["".join(out), *values])  # past the bound, the arguments left as names
    words = [w for w in re.split(r"[\s\0]+", text) if w]
    return [*words, *(n for n in re.split(r"[\n\0]", text) if n and n not in words)]


def _python_module(args: Sequence[str]) -> tuple[str, list[str]] | None:
    """The module Python runs (`-m MODULE`) and its arguments, or None when it runs none (a
    script, `-c`), read as Python reads its options: -m in a cluster of flags or with the
    module in its word (`python -Im gitmem`, `python -mgitmem`), after -W and -X and the
    values they take; without it `python -Im gitmem admit` was no decision."""
    i = 0
    while i < len(args) and args[i].startswith("-") and args[i] not in ("-", "--"):
        arg, i = args[i], i + 1
        if arg.startswith("--"):
            continue  # `--check-hash-based-pycs MODE` aside, no long option runs a module
        for at, flag in enumerate(arg[1:], 2):
            if flag == "c":
                return None  # the program is the rest
            if flag in "mWX":
                value = arg[at:] or (args[i] if i < len(args) else "")
                i += not arg[at:]
                if flag == "m":
                    return value, list(args[i:])
                break
    return None


class _Decision(str):
    """A person's decision a command runs (`gitmem admit`), found among its writes where
    the guard reads commands another runs (find -exec, xargs, an awk or Perl program's
    system, an editor's `:!`, a script a shell reads from its input): judged as denied,
    with DECISION's reason."""


def _command_string(name: str, args: Sequence[str]) -> str | None:
    """The command a command runs from a string, read as a script of its own: a shell's
    (`bash -c CMD`, `bash -lc CMD`, `bash -o pipefail -c CMD`: the first operand after the
    options, one of which holds `c`), `su`'s, `runuser`'s and `script`'s -c or --command
    value, the words `eval` joins; None for a command that runs no string."""
    if name == "eval":
        return " ".join(args)
    if name in _SHELLS:
        clusters = [a for a in args if a.startswith("-") and not a.startswith("--")]
        if not any("c" in a[1:] for a in clusters):
            return None
        i = 0
        while i < len(args) and args[i].startswith(("-", "+")) and args[i] != "--":
            i += 2 if args[i] in _SHELL_VALUED else 1
        i += args[i : i + 1] == ["--"]
        return _positioned(args[i], args[i + 1 :]) if i < len(args) else ""
    if name == "git":
        return _git_string(args)
    if name in _COMMAND_OPTION:
        for i, arg in enumerate(args):
            if arg.startswith("--command="):
                return arg.split("=", 1)[1]
            if arg == "--command" or (
                arg.startswith("-") and not arg.startswith("--") and arg.endswith("c")
            ):
                return args[i + 1] if i + 1 < len(args) else ""
    return None


def _git_string(args: Sequence[str]) -> str | None:
    """The commands git runs through a shell in the work tree, as one script: `git rebase
    --exec CMD` (-x), what `git bisect run CMD ARGS` and `git submodule foreach CMD` run,
    and a shell alias given on its command line (`git -c 'alias.x=!CMD' x ARGS`), in the
    folder git's -C names; None for any other git command.  Not the filters of `git
    filter-branch`, which run in a checkout of their own, nor an alias of git's config
    files, which the guard does not read."""
    found = _git_subcommand(list(args), "")
    if found is None:
        return None
    sub, rest, folder = found
    configured = _option_values(args[: len(args) - len(rest) - 1], "c", ())
    shell = [
        v.split("=", 1)[1][1:] for v in configured if v.lower().startswith(f"alias.{sub.lower()}=!")
    ]
    if shell:
        run = f"{shell[-1]} {shlex.join(rest)}"
    elif sub == "rebase":
        run = "\n".join(_option_values(rest, "x", ("--exec",)))
    elif sub == "bisect" and rest[:1] == ["run"]:
        run = shlex.join(rest[1:])
    elif sub == "submodule" and "foreach" in rest:
        words = rest[rest.index("foreach") + 1 :]
        run = " ".join(w for w in words if w not in ("--recursive", "--quiet", "-q"))
    else:
        return None
    return f"cd {shlex.quote(folder)}\n{run}" if folder and run else run or None


#: Tools that run a package's command (`uvx gitmem admit`), and those that do with `run`
#: (`uv run gitmem admit`, `pipx run gitmem admit`).
_RUNNERS: Final = {"uvx", "pipx"}
_RUNNERS_RUN: Final = {"uv", "pipx", "poetry", "pdm", "hatch", "rye", "pixi"}
#: gitmem as a runner names it: the command, or the package at a version (`gitmem@1.2`).
_GITMEM = re.compile(r"(?:.*/)?gitmem(?:[@=<>~!].*)?")


#: A shell's positional parameter in its command string: `$0`…`$9`, `${N}`, `$@`, `$*`, alone
#: in double quotes (group 1) or not.
_POSITIONAL = re.compile(r'("?)\$(?:([0-9])|\{([0-9]+)\}|([@*]))(\1)')


def _positioned(script: str, given: Sequence[str]) -> str:
    """A shell's command string with its positional parameters replaced by the words given
    after it (`sh -c 'rm "$0"' FILE`: $0 is the first, `"$@"` the others), each quoted so
    that it stays one word of text (within a longer double-quoted word, its spaces are
    escaped, which the shell would keep); a parameter given nothing is left as it is."""
    if "$" not in script or not given:
        return script

    def text(word: str, quoted: bool) -> str:
        return shlex.quote(word) if quoted else re.sub(r'([\\"$`\s;&|<>()\'])', r"\\\1", word)

    def value(found: re.Match[str]) -> str:
        quoted = bool(found.group(1))
        number = found.group(2) or found.group(3)
        if number is None:
            return " ".join(text(word, quoted) for word in given[1:])
        return text(given[int(number)], quoted) if int(number) < len(given) else found.group(0)

    return _POSITIONAL.sub(value, script)


def _aliased(words: list[str], aliases: dict[str, list[str]]) -> list[str]:
    """words with an alias the script defined before (`alias r='rm -f'`) expanded where it
    is the command (once: an alias naming itself stays); an `alias` command is recorded.
    The aliases of the user's own shell files are not known."""
    if words[:1] == ["alias"]:
        for definition in words[1:]:
            name, equals, value = definition.partition("=")
            if equals and name:
                try:
                    aliases[name] = shlex.split(value)
                except ValueError:
                    aliases[name] = [value]
        return []
    if words and words[0] in aliases:
        return [*aliases[words[0]], *words[1:]]
    return words


def _home(folder: str) -> str:
    """folder with `~` expanded as the shell would; one holding NUL as it is (expanding it
    raised, and no system call takes it: nothing is written there)."""
    return folder if "\0" in folder else os.path.expanduser(folder)


def _destination(name: str, args: Sequence[str]) -> list[str]:
    """Where cp, install, ln, rsync or scp write: for the first three the -t folder (`-t DIR`,
    `-tDIR`, `-vt DIR`, `--target-directory[=]DIR`), else the last path argument (the others
    are only read)."""
    valued = _TARGET_FOLDER.get(name)
    for i, arg in enumerate(args):
        if valued is None or arg == "--":
            break
        if arg.startswith("--target-directory="):
            return [arg.split("=", 1)[1]]
        if arg == "--target-directory":
            return list(args[i + 1 : i + 2])
        if arg.startswith("-") and not arg.startswith("--"):
            for j, option in enumerate(arg[1:], 1):
                if option in valued:
                    break  # the rest of the word is that option's value
                if option == "t":
                    return [arg[j + 1 :]] if arg[j + 1 :] else list(args[i + 1 : i + 2])
    paths = _paths(args)
    return paths[-1:]


def _placed(name: str, sources: Sequence[str], destination: Sequence[str], cwd: str) -> list[str]:
    """What a copier, mv or ln makes in a destination folder: each source under its own
    name there (`cp -r ../other/.gitmem .` makes ./.gitmem, the memory folder, though `.`
    is not judged as written); for a source whose content is sent rather than itself (`.`
    or `..` last, for rsync a trailing `/`: `cp -r ../other/. .`, `rsync -a ../other/ .`),
    each name that folder holds now, or, past FIND_RUNS_READ of them, any name (`DEST/*`
    and `DEST/.*`).  When the destination is no folder, the path made is one that cannot
    exist, and judged as harmless as it is."""
    placed: list[str] = []
    for source in sources if destination else ():
        base = os.path.basename(source.rstrip("/").split(":")[-1])
        if base not in ("", os.curdir, os.pardir) and not (
            name == "rsync" and source.endswith("/")
        ):
            placed.extend(os.path.join(folder, base) for folder in destination)
            continue
        try:
            held = os.listdir(os.path.join(cwd, _home(source)))
        except (OSError, ValueError):
            continue  # not a folder here (another host's, one not made yet): not seen
        if len(held) > FIND_RUNS_READ:
            held = ["*", ".*"]
        placed.extend(os.path.join(folder, each) for folder in destination for each in held)
    return placed


def _rsync_removed(args: Sequence[str], destination: Sequence[str]) -> list[str]:
    """What rsync removes: with --remove-source-files, its sources (the files it sent); with
    --delete (--del, --delete-after…), what the destination holds that the source does not:
    the destination itself for a source ending in `/` (its content is sent), else the folder
    of the source's name in it."""
    sources = [p for p in _paths(args) if p not in destination]
    removed = list(sources) if {"--remove-source-files", "--remove-sent-files"} & set(args) else []
    if destination and any(a == "--del" or a.startswith("--delete") for a in args):
        for source in sources:
            content = source.endswith(("/", "/.")) or source == os.curdir
            name = os.path.basename(source.rstrip("/"))
            removed.append(destination[0] if content else os.path.join(destination[0], name))
    return removed


def _makes_links(args: Sequence[str]) -> bool:
    """Whether cp makes links rather than copies: -l (--link), -s (--symbolic-link), in a
    cluster of options too, before the one that takes the rest of the word (-S SUFFIX)."""
    for arg in args:
        if arg == "--":
            return False
        if arg in ("--link", "--symbolic-link"):
            return True
        if arg.startswith("-") and not arg.startswith("--"):
            for option in arg[1:]:
                if option in _TARGET_FOLDER["cp"] or option == "t":
                    break  # the rest of the word is that option's value
                if option in "ls":
                    return True
    return False


def _linked_to(
    args: Sequence[str], destination: Sequence[str], cwd: str
) -> Iterator[tuple[str, str, bool]]:
    """What ln (or cp -l, cp -s) links to, as written: a link to the memory is a way to
    write it, and one made
    in the command that writes through it (`ln -s .gitmem/entries e && echo x > e/a.md`) is
    judged before it exists.  A hard link's file is named from the folder ln runs in, a
    symbolic link's target from the link's own folder (the destination, or the folder
    holding it): each is judged from both (the guard errs wide)."""
    links = [os.path.join(cwd, d) for d in destination]
    for source in (p for p in _paths(args) if p not in destination):
        yield source, cwd, False
        for link in links:
            yield source, link, False
            yield source, os.path.dirname(link), False


def _option_values(args: Sequence[str], short: str, long: Sequence[str]) -> list[str]:
    """The values of a command's options short (letters, alone or last in a cluster, the
    value the rest of the word or the next one) and long (`--output FILE`,
    `--output=FILE`)."""
    out: list[str] = []
    for i, arg in enumerate(args):
        if arg == "--":
            break
        name, equals, value = arg.partition("=")
        if name in long:
            out.extend([value] if equals else args[i + 1 : i + 2])
        elif arg.startswith("-") and not arg.startswith("--"):
            at = next((j for j, c in enumerate(arg[1:], 1) if c in short), None)
            if at is not None:
                out.extend([arg[at + 1 :]] if arg[at + 1 :] else args[i + 1 : i + 2])
    return out


#: split's and csplit's options that take a value (the rest of the word, or the next one).
_PIECES_VALUED: Final = {
    "split": ("abClnt", ("--suffix-length", "--additional-suffix", "--bytes", "--line-bytes",
                         "--lines", "--number", "--separator", "--filter")),
    "csplit": ("bfn", ("--suffix-format", "--prefix", "--digits")),
}  # fmt: skip
#: A printf conversion of a number, in csplit's suffix format.
_NUMBERED = re.compile(r"%[-+ #0']*[0-9]*(?:\.[0-9]*)?[diuoxX]")


def _pieces(name: str, args: Sequence[str]) -> list[str]:
    """The files split and csplit write, as a glob: their prefix (split's second operand,
    csplit's -f or --prefix; `x` and `xx` in the folder they run in) followed by what they
    add to it: one character or more (split's suffix, then its --additional-suffix), or
    csplit's --suffix-format with `*` for its number.  A prefix is any text, so the pieces
    of `.gitmem/INDEX.m` with one-letter suffixes are .gitmem/INDEX.ma… and .gitmem/INDEX.md,
    and those of `.gitmem/entries/x` lie in entries/."""
    short, long = _PIECES_VALUED[name]
    if name == "split":
        operands = _operands(args, short, long)
        prefix = operands[1] if len(operands) > 1 else "x"
        added = _option_values(args, "", ("--additional-suffix",))
        return [f"{prefix}?*{added[-1] if added else ''}"]
    prefixes = _option_values(args, "f", ("--prefix",))
    formats = _option_values(args, "b", ("--suffix-format",))
    suffix = _NUMBERED.sub("*", formats[-1]) if formats else "?*"
    return [f"{prefixes[-1] if prefixes else 'xx'}{suffix}"]


def _each(word: str, starts: Sequence[str]) -> list[str]:
    """word once per starting point of find, `{}` standing for it."""
    return [word.replace("{}", start) for start in starts]


def _extracts(args: Sequence[str]) -> bool:
    """Whether tar extracts (`x` in its first word or an option cluster, --extract, --get)."""
    first = args[0] if args else ""
    return (not first.startswith("-") and "x" in first) or any(
        a in ("--extract", "--get") or (a.startswith("-") and not a.startswith("--") and "x" in a)
        for a in args
    )


def _archives(args: Sequence[str]) -> bool:
    """Whether tar writes its archive (`c`, `r`, `u` or `A` in its first word or an option
    cluster, --create, --append, --update, --concatenate), rather than reads it."""
    first = args[0] if args else ""
    modes = set("cruA")
    return (not first.startswith("-") and bool(modes & set(first))) or any(
        a in ("--create", "--append", "--update", "--concatenate", "--catenate")
        or (a.startswith("-") and not a.startswith("--") and bool(modes & set(a[1:])))
        for a in args
    )


def _tar_file(args: Sequence[str]) -> list[str]:
    """The archive tar writes: its -f (--file) value, or, in the old style (`tar cf FILE
    …`), the word after the first one when that holds `f`."""
    first = args[0] if args else ""
    if first and not first.startswith("-") and "f" in first:
        return list(args[1:2])
    return _option_values(args, "f", ("--file",))


def _found(
    args: Sequence[str],
) -> tuple[list[str], tuple[str, ...] | None, list[tuple[list[str], tuple[str, ...]]]]:
    """find's starting points; when it deletes what it finds, the name patterns what it
    deletes must match (_find_names: none, when nothing bounds it), else None; and the
    commands its -exec, -execdir, -ok and -okdir run (their words up to `;` or `+`), each
    with the name patterns of what it runs on."""
    i = 0
    while i < len(args) and (args[i] in ("-H", "-L", "-P", "-D") or args[i].startswith("-O")):
        i += 2 if args[i] == "-D" else 1
    starts = []
    while i < len(args) and not args[i].startswith(("-", "(", "!")):
        starts.append(args[i])
        i += 1
    deleted: tuple[str, ...] | None = None
    runs = []
    tests: list[str] = []  # the expression so far, but for the commands it runs
    while i < len(args):
        if args[i] in _FIND_RUNS:
            end = i + 1
            while end < len(args) and args[end] not in (";", "+"):
                end += 1
            runs.append((list(args[i + 1 : end]), _find_names(tests)))
            tests.append(args[i])
            i = end + 1
            continue
        if args[i] == "-delete" and deleted is None:
            deleted = _find_names(tests)
        tests.append(args[i])
        i += 1
    return starts or ["."], deleted, runs


#: What in find's expression can make it true of more than one test's files: or, the
#: comma, negation, and parentheses (which group them).
_FIND_WIDENS: Final = {"-o", "-or", ",", "!", "-not", "(", ")"}


def _find_names(before: Sequence[str]) -> tuple[str, ...]:
    """The name patterns (-name, -iname) a file must match for find to reach an action (to
    delete it, or run a command on it): those of the tests before the action when all are
    joined by `and` (one pattern no memory file matches then spares the memory); none when
    something there widens the expression (-o, `,`, `!`, parentheses), as then a name test
    no longer bounds what the action is given."""
    if _FIND_WIDENS & set(before):
        return ()
    pairs = itertools.pairwise(before)
    return tuple(pattern for test, pattern in pairs if test in ("-name", "-iname"))


def _in_place(name: str, args: Sequence[str]) -> bool:
    """sed -i, sed -ni, sed --in-place[=SUFFIX], perl -pi -e …, ruby -i, yq -i (--inplace,
    or --in-place for the Python one); for awk, the
    inplace extension gawk loads (`-i inplace`, `--include=inplace`), since its -i loads
    any library."""
    if name in ("awk", "gawk"):
        pairs = zip(args, [*args[1:], ""], strict=True)
        return any(
            a in ("-iinplace", "--include=inplace")
            or (a in ("-i", "--include") and value == "inplace")
            for a, value in pairs
        )
    return any(
        a in ("--in-place", "--inplace")
        or a.startswith("--in-place=")
        or (a.startswith("-") and not a.startswith("--") and "i" in a[1:])
        for a in args
    )


#: patch's options that take a value (the rest of the word, or the next one).
_PATCH_VALUED: Final = (
    "BDdFgioprVYz",
    ("--prefix", "--ifdef", "--directory", "--fuzz", "--get", "--input", "--output", "--strip",
     "--reject-file", "--version-control", "--basename-prefix", "--suffix", "--quoting-style",
     "--reject-format", "--read-only"),
)  # fmt: skip


def _patches_where_it_runs(args: Sequence[str]) -> bool:
    """Whether patch writes the files its patch names, in the folder it runs in (or its -d
    one): given no file to patch and no -o (--output) to write instead.  GNU patch refuses a
    name with `..` or a leading `/`, so what it writes lies in that folder or below: run in
    entries/, it writes entries."""
    if _operands(args, *_PATCH_VALUED):
        return False
    return not _option_values(args, "o", ("--output",))


#: The most bytes of a patch (or of the patches one command applies) the guard reads, and the
#: most names it judges in them (each -p level of each name counts): past either, the patch
#: is judged as one it cannot read.
MAX_PATCH: Final = 4_000_000
MAX_PATCH_NAMES: Final = 4096
#: The lines of a patch that name a file it writes or removes: unified and context diffs'
#: `---`, `+++` and `***`, git's `diff --git`, its renames and copies, and `Index:`.
_PATCH_HEADER = re.compile(
    rb"^(---|\+\+\+|\*\*\*|diff --git|rename from|rename to|copy from|copy to|Index:)"
    rb"[ \t]+(.*?)\r?$",
    re.M,
)
#: A mail whose body git am decodes before it reads the patch in it.
_ENCODED_MAIL = re.compile(rb"(?im)^content-transfer-encoding:[ \t]*(base64|quoted-printable)")
#: git's options of apply and am that take a value (the rest of the word, or the next one).
_GIT_PATCH_VALUED: Final = {
    "apply": ("pC", ("--directory", "--include", "--exclude", "--whitespace",
                     "--build-fake-ancestor")),
    "am": ("pC", ("--directory", "--include", "--exclude", "--whitespace", "--patch-format",
                  "--resolvemsg", "--empty", "--gpg-sign", "--quoted-cr")),
}  # fmt: skip
#: What makes `git am` apply patches it was given before (those of the am in progress).
_AM_GOES_ON: Final = {"--continue", "--resolved", "-r", "--skip", "--abort", "--retry"}


class _Unseen(str):
    """The folder a patch applies in, or an archive is extracted in, whose file names the
    guard cannot read (from a pipe, a file missing or written earlier in the same script,
    one too large): judged as every file below it written, as removing it would
    (Guard.judge), with why in the reason.  source: what names the files, "patch" or
    "archive"; top: the folder is the top of the work tree holding the one it is relative
    to."""

    command: str
    why: str
    top: bool
    source: str

    def __new__(
        cls, text: str, *, command: str, why: str, top: bool = False, source: str = "patch"
    ) -> _Unseen:
        unseen = super().__new__(cls, text)
        unseen.command = command
        unseen.why = why
        unseen.top = top
        unseen.source = source
        return unseen


def _patched(
    command: str, args: Sequence[str], fed: _Fed, here: str, there: str, seen: _Script
) -> Iterator[tuple[str, str, bool]]:
    """The files a patch command writes, named inside its patch: `patch` (given no file to
    patch, from the folder it runs in or its -d one, -p stripping, every level when it has
    none, as GNU patch may guess one), `git apply` (from the top of the work tree, -p1 unless
    told, below --directory; run in a subfolder, only the names below it, and a diff not of
    git's own from that folder: _patch_kinds) and `git am` (from the top, for the patches
    its mails hold).  The
    patch is read from its file (patch's -i, relative to its -d folder; git's operands), or
    from the standard input (`< FILE`, a here-document or a here-string, relative to the
    folder the shell is in).  One the guard cannot read (_patch_text) gives the folder the
    patch applies in, as _Unseen; git apply skips what lies outside the folder it runs in,
    so that is its folder; git am's is the top of the work tree."""
    if command == "patch":
        if {"--dry-run", "--help", "--version", "-v"} & set(args):
            return
        folder = os.path.join(*(_home(d) for d in _option_values(args, "d", ("--directory",))), "")
        files = _option_values(args, "i", ("--input",))[-1:]
        strips = _option_values(args, "p", ("--strip",))
        where = os.path.join(there, folder)
        prefixes = [os.path.join(folder, b) for b in _option_values(args, "B", ("--prefix",))]
        top = False
    else:
        sub = command.split()[1]
        reports = {"--check", "--stat", "--numstat", "--summary"} & set(args)
        if sub == "apply" and (
            ("--cached" in args and "--index" not in args) or (reports and "--apply" not in args)
        ):
            return  # the index only, or only a report
        if sub == "am" and _AM_GOES_ON & set(args):
            why = "the patches of the am in progress, which it goes on with or undoes"
            yield _Unseen(os.curdir, command=command, why=why, top=True), there, True
            return
        if sub == "am" and {"--quit", "--show-current-patch"} & set(args):
            return
        files = [f for f in _operands(args, *_GIT_PATCH_VALUED[sub])]
        strips = _option_values(args, "p", ())
        folder = os.path.join(*_option_values(args, "", ("--directory",))[-1:], "")
        where = there
        prefixes = []
        top = sub == "am"
    text, why = _patch_text(files, fed, where, here, seen, mail=command == "git am")
    if text is None:
        unseen = os.curdir if command != "patch" else folder or os.curdir
        yield _Unseen(unseen, command=command, why=why, top=top), there, True
        return
    strip = int(strips[-1]) if strips and strips[-1].isdigit() else None
    if strip is None and command != "patch":
        strip = 1
    names = _patch_names(text, strip)
    if names is None:
        why = f"it names more than {MAX_PATCH_NAMES:,} files"
        yield _Unseen(os.curdir, command=command, why=why, top=top), there, True
        return
    git_style, plain = _patch_kinds(text) if command == "git apply" else (True, False)
    for name in names:
        if command == "patch":
            yield os.path.join(folder, name), there, False
            for prefix in prefixes:  # its backups, -B PREFIX: PREFIX then the name
                yield prefix + name, there, False
            continue
        if git_style:  # relative to the top of the work tree, as git reads its own diffs
            spec = _Pathspec(os.path.join(folder, name), top=True, within=command == "git apply")
            yield spec, there, False
        if plain:  # another diff's, from the folder git apply runs in
            yield os.path.join(folder, name), there, False


#: The header lines of git's own diffs, and those of a diff of another tool.
_GIT_DIFF = re.compile(rb"^diff --git ", re.M)
_NEW_NAME = re.compile(rb"^\+\+\+[ \t]", re.M)
_OTHER_DIFF = re.compile(rb"^(?:\*\*\*|Index:)[ \t]", re.M)


def _patch_kinds(text: bytes) -> tuple[bool, bool]:
    """Whether a patch git apply reads holds git's own diffs (`diff --git`), whose names
    are the top of the work tree's (run in a subfolder, git skips those outside it), and
    whether it holds other diffs, whose names git prefixes with the folder it runs in
    (apply.c, prefix_patch; git-apply(1)): a `+++` line or a context diff beyond git's
    headers, or no git header at all."""
    gits = len(_GIT_DIFF.findall(text))
    others = gits == 0 or len(_NEW_NAME.findall(text)) > gits or bool(_OTHER_DIFF.search(text))
    return gits > 0, others


def _patch_text(
    files: Sequence[str], fed: _Fed, where: str, here: str, seen: _Script, *, mail: bool
) -> tuple[bytes | None, str]:
    """The patch a command applies: its files' bytes (relative to where; `-` or none, its
    standard input, given by fed); else None and why the guard cannot read it: a pipe,
    an input it inherits, a here-document the shell expands, a file missing, not a regular
    file, larger than MAX_PATCH, or written earlier in the script (as it will be then, not
    as it is now: `git diff > x.diff; git apply x.diff`) but by `cat` of a here-document
    whose text the guard knows (_earlier: `cat > x.diff <<'EOF'`), and, for git am, a mail
    whose body is encoded."""
    read: list[bytes] = []
    for file in files or ["-"]:
        if file == "-" or not file:
            if fed is None or fed[0] in ("pipe", "other"):
                source = "a pipe" if fed is not None and fed[0] == "pipe" else "an input"
                return None, f"it reads the patch from {source} the guard cannot see"
            if fed[0] == "here":
                if seen.heres is None or any(body is None for body in seen.heres):
                    return None, "it reads the patch from a here-document the shell expands"
                read.extend(body.encode() for body in seen.heres if body is not None)
                continue
            if fed[0] == "string":
                if any(c in fed[1] for c in "$`\ue000"):
                    return None, "it reads the patch from a here-string the shell expands"
                read.append(fed[1].encode() + b"\n")
                continue
            file, folder = fed[1], here
        else:
            folder = where
        path = os.path.realpath(os.path.join(folder, _home(file)))
        written, data = _earlier(path, seen)
        if written and data is None:
            return None, f"{file} is written earlier in the same command"
        why = ""
        if data is None:
            data, why = _read_input(path, file, MAX_PATCH - sum(map(len, read)))
        elif len(data) > MAX_PATCH - sum(map(len, read)):
            data, why = None, f"{file} is larger than the guard reads"
        if data is None:
            return None, why
        read.append(data)
    text = b"\n".join(read)
    if mail and _ENCODED_MAIL.search(text):
        return None, "the mail holding the patch is encoded"
    return text, ""


def _heredoc_written(words: Sequence[str], fed: _Fed, seen: _Script) -> bytes | None:
    """What a command writes to its standard output when that is the text of the
    here-document it reads, unchanged: `cat` with no operand but `-` (its options number
    or mark lines), given a here-document whose text the guard knows; else None."""
    if fed is None or fed[0] != "here" or not fed[1].isdigit() or seen.heres is None:
        return None
    if not words or os.path.basename(words[0]) != "cat" or any(w != "-" for w in words[1:]):
        return None
    n = int(fed[1])
    body = seen.heres[n] if n < len(seen.heres) else None
    return None if body is None else body.encode()


def _earlier(path: str, seen: _Script) -> tuple[bool, bytes | None]:
    """Whether the script writes path (resolved) before the command reading it, and the
    text it holds then when the last of those writes is a _Written one (`cat > x.diff
    <<'EOF'`); (True, None) when the guard does not know what it will hold."""
    for target, folder in reversed(seen.written):
        if path == os.path.realpath(os.path.join(folder, target)):
            return True, target.text if isinstance(target, _Written) else None
    return False, None


def _open_regular(path: str, file: str) -> tuple[BinaryIO | None, str]:
    """A file a command reads (a patch, an archive, the names xargs is given), opened for
    the caller to close; None and why when it cannot be read now (without waiting: a FIFO
    is no regular file, and is not read)."""
    from gitmem.repo.atomic import open_regular

    try:
        return open_regular(path, follow_links=True), ""
    except FileNotFoundError:
        return None, f"{file} does not exist yet"
    except ValueError:
        return None, f"{file} is not a regular file"
    except OSError:
        return None, f"{file} cannot be opened"


def _read_input(path: str, file: str, room: int) -> tuple[bytes | None, str]:
    """The bytes of a file a command reads, at most room of them; None and why when it
    cannot be read now (_open_regular)."""
    opened, why = _open_regular(path, file)
    if opened is None:
        return None, why
    with opened as handle:
        data = handle.read(room + 1)
    if len(data) > room:
        return None, f"{file} is larger than the guard reads"
    return data, ""


def _patch_names(text: bytes, strip: int | None) -> list[str] | None:
    """The paths a patch writes or removes, -p stripped (strip leading parts, each level
    when None), from every line that may name one (a line of a hunk that looks like a
    header counts too: a path judged more, never one less); None past MAX_PATCH_NAMES."""
    names: dict[str, None] = {}
    for match in _PATCH_HEADER.finditer(text):
        if match.group(2).count(b" ") > MAX_PATCH_NAMES:
            return None
        for name in _header_names(match.group(1), match.group(2)):
            for each in _stripped(os.fsdecode(name), strip):
                names[each] = None
            if len(names) > MAX_PATCH_NAMES:
                return None
    return list(names)


def _header_names(header: bytes, rest: bytes) -> list[bytes]:
    """What a header line may name: a C-quoted name as git writes one; else the line, the
    part before a tab (a timestamp follows it) and before a space; for `diff --git A B`,
    whose names may hold spaces, each way of cutting it in two at a space."""
    if rest.startswith(b'"'):
        first, after = _unquote_c(rest)
        names = [first]
        if header == b"diff --git":
            second = after.strip()
            names.append(_unquote_c(second)[0] if second.startswith(b'"') else second)
        return names
    names = [rest.split(b"\t")[0], rest.split(b" ")[0], rest]
    if header == b"diff --git":
        names = [n for i, c in enumerate(rest) if c == 32 for n in (rest[:i], rest[i + 1 :])]
        if rest.endswith(b'"'):  # `a/x "b/y z"`: the second name quoted
            quoted = rest.find(b' "')
            if quoted >= 0:
                names.append(_unquote_c(rest[quoted + 1 :])[0])
    return [n for n in names if n and n != b"/dev/null"]


_C_ESCAPES: Final = {b"a": 7, b"b": 8, b"f": 12, b"n": 10, b"r": 13, b"t": 9, b"v": 11}


def _unquote_c(text: bytes) -> tuple[bytes, bytes]:
    """A name git quotes (`"a/caf\\303\\251"`: C escapes, octal bytes), and what follows
    its closing quote."""
    out = bytearray()
    i = 1
    while i < len(text):
        c = text[i : i + 1]
        if c == b'"':
            return bytes(out), text[i + 1 :]
        if c == b"\\" and i + 1 < len(text):
            nxt = text[i + 1 : i + 2]
            octal = re.match(rb"[0-7]{1,3}", text[i + 1 : i + 4])
            if octal:
                out.append(int(octal.group(0), 8) & 0xFF)
                i += 1 + len(octal.group(0))
                continue
            out.append(_C_ESCAPES.get(nxt, nxt[0]))
            i += 2
            continue
        out += c
        i += 1
    return bytes(out), b""


def _stripped(name: str, strip: int | None) -> list[str]:
    """name with its first strip parts taken off, as -pN does (a run of slashes is one); each
    such name, the whole one first, when strip is None."""
    parts = re.split("/+", name)
    if strip is not None:
        rest = "/".join(parts[strip:])
        return [rest] if rest else []
    levels = range(max(1, len(parts) - 256), len(parts))  # a path longer is judged whole
    return [each for each in (name, *("/".join(parts[i:]) for i in levels)) if each]


#: The largest compressed archive the guard reads (it decompresses all of it to find the
#: names of its members: 64 MB took under a second), and the most members it judges; past
#: either, the archive is judged as one it cannot read.
MAX_ARCHIVE: Final = 64_000_000
MAX_MEMBERS: Final = 16_384
#: The first bytes of a compressed stream: gzip, bzip2, xz, zstd, lzip, lzma, compress.
_COMPRESSED: Final = (
    b"\x1f\x8b",
    b"BZh",
    b"\xfd7zXZ",
    b"\x28\xb5\x2f\xfd",
    b"LZIP",
    b"\x5d\x00",
    b"\x1f\x9d",
)
#: unzip's options that write no file (list, test, to the output, comment) and those that
#: take a value.
_UNZIP_READS: Final = frozenset("lptcvzZ")
_UNZIP_VALUED: Final = "dPOIx"
#: tar's options that rename what it extracts, the guard not reading their expressions.
_TAR_RENAMES: Final = ("--transform", "--xform", "-s")


def _extracted(
    name: str, args: Sequence[str], folder: str, fed: _Fed, here: str, there: str, seen: _Script
) -> Iterator[tuple[str, str, bool]]:
    """The files `tar -x` and unzip write, named in their archive, below the folder they
    extract into: each member (with `--strip-components` taken off, and as the relative name
    tar makes of an absolute one), and what a link member links to.  The archive is read
    from its file (tar's -f, unzip's first operand) or, for tar, the standard input; one it
    cannot read (a pipe, a file missing or written earlier in the script, one too large,
    a format Python does not read, names tar rewrites with --transform) gives the folder,
    as _Unseen: every file below it may be written."""
    command = f"{name} -x" if name == "tar" else name

    def unseen(why: str) -> tuple[str, str, bool]:
        return _Unseen(folder, command=command, why=why, source="archive"), there, True

    strip = 0
    if name == "unzip":
        if any(a[:1] == "-" and _UNZIP_READS & set(a[1:]) for a in args if a != "-x"):
            return
        files = _operands(args, _UNZIP_VALUED)[:1]
        junk = any(a[:1] == "-" and "j" in a[1:] for a in args)
        if not files:
            return
    else:
        first = args[0] if args and not args[0].startswith("-") else ""
        if (
            "--to-stdout" in args
            or "O" in first
            or any(a[:1] == "-" and a[1:2] != "-" and "O" in a for a in args)
        ):
            return  # to the standard output
        if any(a.startswith(("--to-command", *_TAR_RENAMES)) for a in args):
            yield unseen("it renames the members it extracts, or gives them to a command")
            return
        files = _tar_file(args)[-1:]
        junk = False
        stripped = _option_values(args, "", ("--strip-components", "--strip"))[-1:]
        strip = int(stripped[0]) if stripped and stripped[0].isdigit() else 0
    if not files or files == ["-"]:
        if fed is None or fed[0] != "file":
            yield unseen("it reads the archive from a pipe or an input the guard cannot see")
            return
        file, where = fed[1], here
    else:
        file, where = files[0], there
    path = os.path.realpath(os.path.join(where, _home(file)))
    if any(path == os.path.realpath(os.path.join(w, t)) for t, w in seen.written):
        yield unseen(f"{file} is written earlier in the same command")
        return
    members, why = _members(name, path, file)
    if members is None:
        yield unseen(why)
        return
    for member, link, hard in members:
        # unzip takes a `\` in a name made on Windows for a folder's `/`
        named = {member, member.replace("\\", "/")} if name == "unzip" else {member}
        for each in (
            each
            for one in sorted(named)
            for each in (_stripped(one.lstrip("/"), strip) if strip else [one.lstrip("/")])
        ):
            written = os.path.basename(each) if junk else each  # unzip -j: the names alone
            yield (written if folder == os.curdir else os.path.join(folder, written)), there, False
            if link:  # a symbolic link's target from its folder, a hard link's from the top
                base = folder if hard else os.path.join(folder, os.path.dirname(each))
                yield os.path.join(base, link), there, False


def _members(kind: str, path: str, file: str) -> tuple[list[tuple[str, str, bool]] | None, str]:
    """The members of an archive file, each (name, what it links to or '', whether that is
    a hard link); None and why when the guard cannot read them."""
    opened, why = _open_regular(path, file)
    if opened is None:
        return None, why
    with opened as handle:
        found = os.fstat(handle.fileno())
        if kind == "unzip":
            import zipfile  # only for an archive extracted: the hook's start stays light

            try:
                names = zipfile.ZipFile(handle).namelist()
            except (zipfile.BadZipFile, OSError, ValueError, EOFError):
                return None, f"{file} is no zip archive the guard reads"
            if len(names) > MAX_MEMBERS:
                return None, f"{file} holds more than {MAX_MEMBERS:,} files"
            return [(name, "", False) for name in names], ""
        if handle.read(6).startswith(_COMPRESSED) and found.st_size > MAX_ARCHIVE:
            return None, f"{file} is larger than the {MAX_ARCHIVE:,} bytes the guard reads"
        handle.seek(0)
        import tarfile

        members: list[tuple[str, str, bool]] = []
        try:
            with tarfile.open(fileobj=handle, mode="r:*") as archive:
                for member in archive:
                    link = member.linkname if member.issym() or member.islnk() else ""
                    members.append((member.name, link, member.islnk()))
                    if len(members) > MAX_MEMBERS:
                        return None, f"{file} holds more than {MAX_MEMBERS:,} files"
        except Exception:  # any damage or format the stdlib refuses: a decision, never a crash
            return None, f"{file} is no tar archive the guard reads"
        return members, ""


#: The most names xargs is given that the guard reads from a file (beyond, the file is
#: judged as one it cannot read).
MAX_XARGS: Final = 4096
#: Commands that list files below the folders they are given (or the one they run in);
#: the searchers with the options that make them list files, not lines.
_LISTERS: Final = {"ls", "fd", "fdfind"}
_SEARCHERS: Final = {"grep", "egrep", "fgrep", "rg", "ag", "ack", "git"}


def _lists_files(given: str, args: Sequence[str]) -> bool:
    """Whether a command's output is names of files below the folders it is given (or the
    one it runs in): ls, fd; grep, rg, ag, ack with -l or -L (--files-with-matches,
    --files-without-match), rg --files; git ls-files, `git grep -l`, a diff's
    --name-only."""
    if given in _LISTERS:
        return True
    if given not in _SEARCHERS:
        return False
    if given == "git" and args[:1] == ["ls-files"]:
        return True
    if given == "git" and args[:1] not in (["grep"], ["diff"], ["show"], ["log"]):
        return False
    short = "".join(a[1:] for a in args if a[:1] == "-" and a[1:2] != "-")
    return bool(
        set(short) & {"l", "L"}
        or {"--files-with-matches", "--files-without-match", "--files", "--name-only"} & set(args)
    )


def _stdin_script(
    args: Sequence[str], fed: _Fed, upstream: Sequence[str], upstream_fed: _Fed, seen: _Script
) -> str | None:
    """The script a shell given no -c string reads from its standard input, when the guard
    sees its text: a here-document's (as written: the shell expands it as it would a
    command line), a here-string's, the words `echo` or `printf` pipe to it, or what `cat`
    pipes from a here-document or here-string (`cat <<'EOF' | sh`); None when it runs a
    script file (its first operand, but with -s, or one naming the standard input: `bash
    /dev/stdin`, `source /dev/stdin`, `. /dev/stdin`) or reads an input the guard does not
    know (a script the command runs, left to the git hooks)."""
    i = 0
    clusters = ""
    while i < len(args) and args[i].startswith(("-", "+")) and args[i] != "--":
        clusters += args[i][1:] if not args[i].startswith("--") else ""
        i += 2 if args[i] in _SHELL_VALUED else 1
    i += args[i : i + 1] == ["--"]
    if i < len(args) and "s" not in clusters and args[i] not in _STDIN:
        return None  # `bash script.sh`
    given = os.path.basename(upstream[0]) if upstream else ""
    if fed == ("pipe", "") and given in ("echo", "printf"):
        words = [w for w in upstream[1:] if not (given == "echo" and w.startswith("-"))]
        text = "\n".join(words) if given == "printf" else " ".join(words)
        return text.replace("\\n", "\n")
    if fed == ("pipe", "") and given == "cat" and not upstream[1:]:
        fed = upstream_fed
    if fed is not None and fed[0] == "string":
        return fed[1]
    if fed is not None and fed[0] == "here" and seen.raws is not None:
        return "".join(seen.raws)  # each of the script's: one judged more, never one less
    return None


def _fed_text(fed: _Fed, seen: _Script) -> str | None:
    """The text of a here-document or here-string a command reads; None when the shell
    expands it (a here-string's substitution, a here-document's `$`) or it is not known."""
    if fed is not None and fed[0] == "string":
        return None if any(c in fed[1] for c in "$`\ue000") else fed[1] + "\n"
    if seen.heres is None or any(body is None for body in seen.heres):
        return None
    return "".join(body for body in seen.heres if body is not None)


def _xargs_targets(
    options: Sequence[str],
    words: Sequence[str],
    fed: _Fed,
    upstream: Sequence[str],
    here: str,
    there: str,
    depth: int,
    seen: _Script,
    upstream_fed: _Fed = None,
) -> Iterator[tuple[str, str, bool]]:
    """What the command xargs runs writes with the words its input adds (after its own, or
    for each `-I R` in them): read from the file its -a names or its standard input is
    redirected from, or the files whose lines the command before prints unchanged
    (_filtered: `cat FILE |`, `sort FILE |`, `sort < FILE |`…, upstream_fed being that
    command's own input); from `find START … |`, what find finds, judged as `find START …
    -exec COMMAND {} +` is (with its name tests); from `echo`/`printf WORDS |`, those words,
    and a here-document's or here-string's.  After a command that lists files (_lists_files),
    they lie below the folders it is given (its operands that exist), or the folder it runs
    in, judged as written whole (_Unseen), so `grep -rl old . | xargs sed -i s/old/new/` is
    denied in the root and allowed on src; other input (another command's output, a file
    the guard cannot read) may name any file, anywhere: denied when the command writes it."""
    replace = next(iter(_option_values(options, "I", ("--replace",))), None)
    if replace is None and any(o == "--replace" or o.startswith("-i") for o in options):
        replace = next((o[2:] for o in options if o.startswith("-i") and o[2:]), "{}")
    files = _option_values(options, "a", ("--arg-file",))[-1:]
    null = bool({"-0", "--null"} & set(options))
    delimiter = _option_values(options, "d", ("--delimiter",))[-1:]
    sources = files or ([fed[1]] if fed is not None and fed[0] == "file" else [])
    given = os.path.basename(upstream[0]) if upstream else ""
    if not sources:  # `cat FILE | xargs …`, `sort FILE | xargs …`: the file's words
        sources = _filtered(given, upstream[1:], upstream_fed)
    items: list[str] | None = None
    starts: list[str] = []
    names: tuple[str, ...] = ()
    why = "the names come from a command whose output the guard does not know"
    if sources:
        items, why = _xargs_read(sources, there if files else here, seen, null, delimiter)
    elif given == "find":
        starts, names = _found(upstream[1:])[0], _find_names(upstream[1:])
    elif given in ("echo", "printf"):
        printed = [w for w in upstream[1:] if not w.startswith("-")]
        items = _printf(printed[0], printed[1:]) if given == "printf" and printed else printed
    elif fed is not None and fed[0] in ("here", "string"):  # `xargs rm <<EOF`, `<<< WORDS`
        text = _fed_text(fed, seen)
        items = None if text is None else _xargs_items(text, null, delimiter)
    elif _lists_files(given, upstream[1:]):  # what it lists lies below the folders it is given
        starts = [w for w in _paths(upstream[1:]) if os.path.lexists(os.path.join(here, _home(w)))]
        starts = starts or [os.curdir]
    if items is None and not starts:
        starts = [os.sep]  # names from anywhere: every memory folder may be among them
    command = list(words)
    if items is not None:
        if replace:
            runs = [[w.replace(replace, item) for w in command] for item in items]
        else:
            runs = [[*command, *items]]
        for run in runs:
            yield from bash_targets(shlex.join(run), there, depth + 1, seen.written)
        return
    if replace and any(replace in w for w in command):
        run = [
            each
            for w in command
            for each in ([w] if replace not in w else _each(w.replace(replace, "{}"), starts))
        ]
    else:
        run = [*command, *starts]
    finder = given == "find"
    for target, where, gone in bash_targets(shlex.join(run), there, depth + 1, seen.written):
        if target not in starts:
            yield target, where, gone
        elif finder:  # what find finds there, or below: judged as -delete's
            yield _Found(target, names=names), where, True
        else:
            runs_it = f"xargs {os.path.basename(command[0])}"
            yield _Unseen(target, command=runs_it, why=why, source="input"), where, True


def _xargs_read(
    sources: Sequence[str], cwd: str, seen: _Script, null: bool, delimiter: Sequence[str]
) -> tuple[list[str] | None, str]:
    """The words xargs is given from the files sources names (relative to cwd), each read
    as a whole (or as the script writes it before, when the guard knows the text: _earlier);
    None and why when one cannot be read now (`-`, the standard input of the command
    before, is not), is written earlier in the script, or past MAX_XARGS words."""
    items: list[str] = []
    for source in sources:
        if source == "-":
            return None, "the names come from a command whose output the guard does not know"
        path = os.path.realpath(os.path.join(cwd, _home(source)))
        written, data = _earlier(path, seen)  # `cat > list <<'EOF'` before: its text
        if written and data is None:
            return None, f"{source} is written earlier in the same command"
        why = ""
        if data is None:
            data, why = _read_input(path, source, MAX_PATCH)
        if data is None:
            return None, why
        read = _xargs_items(os.fsdecode(data), null, delimiter)
        if read is None or len(items) + len(read) > MAX_XARGS:
            return None, f"{source} names more than {MAX_XARGS:,} files"
        items.extend(read)
    return items, ""


#: sort's, uniq's, head's and tail's options that take a value (_filtered).
_FILTER_VALUED: Final = {
    "sort": ("kotST", ("--key", "--field-separator", "--output", "--buffer-size",
                       "--temporary-directory", "--batch-size", "--compress-program",
                       "--parallel", "--random-source", "--sort")),
    "uniq": ("fsw", ("--skip-fields", "--skip-chars", "--check-chars")),
    "head": ("nc", ("--lines", "--bytes")),
    "tail": ("ncs", ("--lines", "--bytes", "--sleep-interval", "--pid", "--max-unchanged-stats")),
}  # fmt: skip


def _filtered(given: str, args: Sequence[str], fed: _Fed = None) -> list[str]:
    """The files whose words are all the words a command prints, which xargs is then given:
    `cat FILE`; `sort FILE…` (their lines, reordered: each file's last line ends, so no
    two words are joined); `uniq FILE` but -c, which adds counts; `head` or `tail` of one
    FILE but -c (--bytes), which may cut a word; with no FILE, the one its standard input
    is redirected from (fed: `sort < FILE`).  [] for another command, one reading another
    input, or sort's --files0-from (the files it reads are named in another)."""
    if given != "cat" and given not in _FILTER_VALUED:
        return []
    short, long = _FILTER_VALUED.get(given, ("", ()))
    operands = _paths(args) if given == "cat" else _operands(args, short, long)
    if not operands and fed is not None and fed[0] == "file":
        operands = [fed[1]]
    if given == "cat":
        return operands if len(operands) == 1 else []
    options = [a for a in args[: len(args) - len(operands)] if a.startswith("-")]
    if given == "sort":
        return [] if any(a.startswith("--files0-from") for a in args) else operands
    if given == "uniq":
        counts = any(a == "--count" or (a[1:2] != "-" and "c" in a[1:]) for a in options)
        return [] if counts else operands[:1]
    cuts = _option_values(args, "c", ("--bytes",)) or any(a.startswith("--bytes") for a in args)
    return operands if len(operands) == 1 and not cuts else []


#: GNU parallel's options that take a value (the next word), short and long, and those
#: whose value is a file or folder it writes.
_PARALLEL_VALUED: Final = (
    "aSjPnNLdEIsCl",
    ("--arg-file", "--sshlogin", "--jobs", "--max-args", "--max-lines", "--delimiter",
     "--eof", "--colsep", "--results", "--res", "--joblog", "--tmpdir", "--workdir", "--wd",
     "--retries", "--timeout", "--delay", "--tagstring", "--basefile", "--return",
     "--max-procs", "--memfree", "--load", "--sshloginfile", "--output-as-files"),
)  # fmt: skip
_PARALLEL_WRITES: Final = ("--results", "--res", "--joblog")
_PARALLEL_SOURCES: Final = (":::", "::::", ":::+", "::::+")


def _parallel(
    args: Sequence[str],
    fed: _Fed,
    upstream: Sequence[str],
    here: str,
    there: str,
    depth: int,
    seen: _Script,
) -> Iterator[tuple[str, str, bool]]:
    """What GNU parallel's command writes with the arguments it is given, judged as xargs's
    (_xargs_targets): after `:::`, the words that follow; after `::::`, the lines of the
    file; else its standard input; `{}` where the command names it, else appended; and the
    files and folders its --results and --joblog write."""
    i = 0
    options: list[str] = []
    short, long = _PARALLEL_VALUED
    while i < len(args) and args[i].startswith("-") and args[i] not in _PARALLEL_SOURCES:
        word = args[i]
        takes = (word in long) or (len(word) == 2 and word[1:] in short)
        options.extend(args[i : i + 1 + takes])
        i += 1 + takes
    end = next((j for j in range(i, len(args)) if args[j] in _PARALLEL_SOURCES), len(args))
    command, rest = list(args[i:end]), list(args[end:])
    for path in _option_values(options, "", _PARALLEL_WRITES):
        yield path, there, False
    if not command:
        return
    given: list[str] = ["-I", "{}"] if any("{}" in w for w in command) else []
    words: list[str] = []
    files: list[str] = [*_option_values(options, "a", ("--arg-file",))]
    kind = ""
    for word in rest:
        if word in _PARALLEL_SOURCES:
            kind = word.rstrip("+")
        elif kind == "::::":
            files.append(word)
        else:
            words.append(word)
    if files:
        given += ["-a", files[-1]]
    elif rest:
        fed, upstream = ("string", shlex.join(words)), []
    yield from _xargs_targets(given, command, fed, upstream, here, there, depth, seen)


def _xargs_items(text: str, null: bool, delimiter: Sequence[str]) -> list[str] | None:
    """The words xargs makes of its input: split at NUL (-0), at its -d character, else at
    blanks with the quotes and backslashes it honours; None past MAX_XARGS."""
    if null:
        items = text.split("\0")
    elif delimiter:
        mark = delimiter[0].encode().decode("unicode_escape") if delimiter[0] else "\n"
        items = text.split(mark[:1] or "\n")
    else:
        try:
            items = shlex.split(text)
        except ValueError:
            items = text.split()
    items = [item for item in items if item]
    return items if len(items) <= MAX_XARGS else None


#: A URL among a downloader's arguments.
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")


def _downloaded(
    name: str, args: Sequence[str], named: Sequence[str], there: str
) -> Iterator[tuple[str, str, bool]]:
    """The files curl and wget write under names of their own, in the folder they run in or
    the one they are told (wget's -P, --directory-prefix; curl's --output-dir): the last
    part of each URL's path (wget's index.html for none), for wget without -O and curl with
    -O (--remote-name, --remote-name-all), curl's -o FILE in its --output-dir; names the
    guard cannot tell (wget's -r, -m, -i; curl's -J, from the server's header) count as any
    file below that folder (_Unseen)."""
    from urllib.parse import unquote, urlsplit

    if name == "wget":
        folder = (_option_values(args, "P", ("--directory-prefix",))[-1:] or [os.curdir])[0]
        remote = not _option_values(args, "O", ("--output-document",))
        unknown = {"-r", "-m", "--recursive", "--mirror"} & set(args) or bool(
            _option_values(args, "i", ("--input-file",))
        )
    else:
        folder = (_option_values(args, "", ("--output-dir",))[-1:] or [os.curdir])[0]
        short = [a for a in args if a[:1] == "-" and a[1:2] != "-"]
        remote = any("O" in a for a in short) or bool(
            {"--remote-name", "--remote-name-all"} & set(args)
        )
        unknown = remote and (any("J" in a for a in short) or "--remote-header-name" in args)
        if folder != os.curdir:
            for path in named:  # -o FILE, in --output-dir
                yield os.path.join(folder, path), there, False
    if folder != os.curdir:
        yield folder, there, False
    if unknown:
        why = "the names come from the server or a list of URLs"
        yield _Unseen(folder, command=name, why=why, source="download"), there, True
        return
    if not remote:
        return
    for url in (a for a in args if _URL.match(a)):
        base = urlsplit(url).path.rsplit("/", 1)[-1] or ("index.html" if name == "wget" else "")
        for each in {base, unquote(base)} - {""}:
            yield (each if folder == os.curdir else os.path.join(folder, each)), there, False


#: Archivers whose archives the guard does not read (Python reads no cpio, 7z or rar), and
#: ar, whose members are names without folders.
_OTHER_ARCHIVERS: Final = {"cpio", "7z", "7za", "7zr", "7zz", "unrar", "ar"}


def _python_extracts(args: Sequence[str]) -> tuple[str, str, str] | None:
    """What `python -m zipfile -e ARCHIVE DIR` and `python -m tarfile -e ARCHIVE [DIR]`
    extract, as (the archiver they act as, the archive, the folder); None for another
    python command."""
    if "-m" not in args:
        return None
    module = args.index("-m") + 1
    rest = list(args[module + 1 :])
    kind = {"zipfile": "unzip", "tarfile": "tar"}.get(args[module] if module < len(args) else "")
    flag = next((w for w in rest if w in ("-e", "--extract")), None)
    if kind is None or flag is None:
        return None
    operands = [w for w in rest[rest.index(flag) + 1 :] if not w.startswith("-")]
    if not operands:
        return None
    return kind, operands[0], (operands[1:2] or [os.curdir])[0]


def _archivers(name: str, args: Sequence[str], there: str) -> Iterator[tuple[str, str, bool]]:
    """What cpio, 7z, unrar and ar write: the archive they create (cpio -o's -O or -F, 7z
    a's); what they extract (`cpio -i`, `7z x|e`, `unrar x|e`, with `cpio -D`, `7z -oDIR`,
    unrar's folder operand), and what `cpio -p DIR` copies into DIR (the names its input
    gives), as names the guard cannot read: any file below that folder (_Unseen); ar x's
    members, which have no folder of their own, in the folder it runs in."""
    short = "".join(a[1:] for a in args if a[:1] == "-" and a[1:2] != "-")
    first = args[0] if args else ""
    if name == "ar":
        key = first.lstrip("-")
        if "x" in key:
            yield os.curdir, there, False
        if set(key) & set("dmqr"):  # the archive it changes
            operands = _operands(args)[0 if first.startswith("-") else 1 :]
            yield from ((path, there, False) for path in operands[:1])
        return
    if name == "cpio":
        if "o" in short or "--create" in args:
            for path in _option_values(args, "OF", ("--file",)):
                yield path, there, False
            return
        if "t" in short or {"--list", "--to-stdout"} & set(args):
            return
        if "p" in short or "--pass-through" in args:
            folders = _operands(args, "DEFHIMORs", ("--directory", "--file", "--format"))[-1:]
            source, why = "input", "it copies the names its input gives"
        elif "i" in short or "--extract" in args:
            folders = _option_values(args, "D", ("--directory",))[-1:]
            source, why = "archive", "the guard reads no cpio archive"
        else:
            return
    else:
        words = [a for a in args if not a.startswith("-")]
        if first in ("a", "u", "d", "rn"):  # 7z a ARCHIVE …: the archive it changes
            yield from ((path, there, False) for path in words[1:2])
            return
        if first not in ("x", "e"):
            return
        if name == "unrar":
            folders = [w for w in words[2:] if w.endswith("/")][-1:]
        else:
            folders = [a[2:] for a in args if a.startswith("-o") and a[2:]][-1:]
        source, why = "archive", f"the guard reads no {name} archive"
    folder = folders[0] if folders else os.curdir
    yield _Unseen(folder, command=f"{name} {first}".strip(), why=why, source=source), there, True


#: A sed command that writes a file: `w FILE` and `W FILE`, alone, after an address, or as
#: the flag of `s///`; the file's name runs to the end of the line.  Read wide (a `w` inside
#: a regular expression may be taken for one: a path judged more, never one less).
_SED_WRITE = re.compile(r"(?:^|[;\n{}$/0-9]|[gpiImMe])\s*[wW]\s*([^\n]+)")
#: GNU sed's `e` command (after an address, `!`), with the command it runs, and the `e`
#: flag of `s///`, which runs the text the substitution makes.
_SED_EXEC = re.compile(
    r"(?:^|[;\n{}])\s*(?:[0-9$]+|/(?:[^/\\\n]|\\.)*/)?"
    r"(?:\s*,\s*(?:[0-9$]+|/(?:[^/\\\n]|\\.)*/))?\s*!?\s*e(?![A-Za-z])[ \t]*([^\n]*)"
)
_SED_EXEC_FLAG = re.compile(
    r"s([^\s\w\\])(?:\\.|(?!\1)[^\\])*\1(?:\\.|(?!\1)[^\\])*\1[0-9gpiImMw]*e"
)
#: sed's options that take a value, and script's.
_SED_VALUED: Final = ("efl", ("--expression", "--file", "--line-length"))
_SCRIPT_VALUED: Final = (
    "cEIOBTmo",
    ("--command", "--echo", "--log-in", "--log-out", "--log-io", "--log-timing",
     "--output-limit", "--logging-format"),
)  # fmt: skip


def _sed_writes(args: Sequence[str], cwd: str, seen: _Script) -> list[str] | None:
    """The files a sed script writes with its w and W commands (`sed -n 'w out' in`,
    `sed 's/a/b/w out' in`), whatever -i says: the scripts of its -e options, of the
    files its -f options name (read when they are small regular files not written earlier
    in the script; None for one that is not, which may write any file), or its first
    operand when it has neither."""
    scripts = _sed_scripts(args, cwd, seen)
    if scripts is None:
        return None
    return [m.group(1).strip() for text in scripts for m in _SED_WRITE.finditer(text)]


def _sed_runs(args: Sequence[str], cwd: str, seen: _Script) -> _Program:
    """What GNU sed's `e` runs: `e COMMAND` the command (to the end of its line), `e`
    alone and the `e` flag of `s///` the text it makes (a command computed from the
    input: any name where sed runs)."""
    program = _Program()
    for text in _sed_scripts(args, cwd, seen) or ():
        for found in _SED_EXEC.finditer(text):
            if found.group(1).strip():
                program.runs.append(found.group(1))
            else:
                program.computed = True
        if _SED_EXEC_FLAG.search(text):
            program.computed = True
    return program


def _sed_scripts(args: Sequence[str], cwd: str, seen: _Script) -> list[str] | None:
    """A sed command's scripts (_sed_writes); None when a -f file cannot be read."""
    scripts = _option_values(args, "e", ("--expression",))
    for file in _option_values(args, "f", ("--file",)):
        path = os.path.realpath(os.path.join(cwd, _home(file)))
        data, _ = _read_input(path, file, MAX_PATCH) if file != "-" else (None, "")
        if data is None or any(
            path == os.path.realpath(os.path.join(w, t)) for t, w in seen.written
        ):
            return None
        scripts.append(os.fsdecode(data))
    if not scripts:
        scripts = _operands(args, *_SED_VALUED)[:1]
    return scripts


class _Program:
    """What a program a command is given (awk's, a Perl one-liner, an editor's commands)
    does to files itself, as far as its text spells it: the names it writes (with whether
    it removes them), the shell commands it runs, whether it writes to a name (or runs a
    command) it computes, and whether a file holding it cannot be read."""

    __slots__ = ("computed", "names", "runs", "unread")

    def __init__(self) -> None:
        self.names: list[tuple[str, bool]] = []
        self.runs: list[str] = []
        self.computed = False
        self.unread = False


def _programmed(
    command: str, program: _Program, cwd: str, depth: int, seen: _Script
) -> Iterator[tuple[str, str, bool]]:
    """The writes of a program's own: the names it spells (relative to cwd, the folder the
    command runs in), what the commands it runs write, and, for a name it computes, any
    file below cwd (_Unseen: denied where cwd is, holds or lies in a memory folder, as a
    patch the guard cannot read is); for a program file it cannot read, any file anywhere,
    as for `sed -f`.  Past MAX_PATCH_NAMES names, or MAX_JUDGED characters of commands or
    MAX_BRACED of them (a here-document feeding ed is not bounded, and each command is
    split on its own), they count as names it computes."""
    runs = program.runs
    if (
        len(program.names) > MAX_PATCH_NAMES
        or sum(map(len, runs)) > MAX_JUDGED
        or len(runs) > MAX_BRACED
    ):
        program.names, program.runs, program.computed = [], [], True
    for name, removed in program.names:
        yield name, cwd, removed
    for run in program.runs:
        yield from bash_targets(run, cwd, depth + 1, seen.written)
    if program.computed:
        why = "its program writes to a name, or runs a command, that it computes"
        yield _Unseen(os.curdir, command=command, why=why, source="program"), cwd, True
    if program.unread:
        why = "its program file cannot be read, or is written earlier in the command"
        yield _Unseen(os.sep, command=command, why=why, source="script"), cwd, True


def _program_file(file: str, cwd: str, seen: _Script) -> str | None:
    """The text of a program file a command is given (awk -f, vim -S), read as _sed_writes
    reads sed's -f; None when it cannot be read now or is written earlier in the script
    with a text the guard does not know."""
    if file == "-":
        return None
    path = os.path.realpath(os.path.join(cwd, _home(file)))
    written, data = _earlier(path, seen)
    if written and data is None:
        return None
    if data is None:
        data, _ = _read_input(path, file, MAX_PATCH)
    return None if data is None else os.fsdecode(data)


#: The awks, whose programs write files themselves (`print > "FILE"`) and run commands
#: (`system("…")`, `print | "…"`, `"…" | getline`).
_AWKS: Final = {"awk", "gawk", "mawk", "nawk", "original-awk"}
#: awk's options that take a value (short ones the rest of the word or the next one).
_AWK_VALUED: Final = (
    "FvfeEilW",
    ("--field-separator", "--assign", "--file", "--source", "--exec", "--include", "--load"),
)
#: gawk's options that write the file they are given in their word (`-oFILE`,
#: `--profile=FILE`).
_AWK_OUTPUTS: Final = ("--pretty-print=", "--profile=", "--dump-variables=")
#: An awk program as tokens: (kind, text), the kinds str, name, num, op and end (`;` or a
#: line break); spaces, comments and regular expressions left out.
_AWK_TOKEN = re.compile(
    r"""(?P<space>[ \t\r]+|\\\n)|(?P<comment>\#[^\n]*)|(?P<end>[\n;])"""
    r"""|(?P<str>"(?:[^"\\\n]|\\.)*")|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"""
    r"""|(?P<num>[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9]+)"""
    r"""|(?P<op>\|&|\|\||&&|>>|>=|<=|==|!=|\+\+|--|[-+*/%^!<>|?:,(){}\[\]$=~&])"""
    r"""|(?P<other>.)""",
    re.S,
)
#: After these, a `/` divides; elsewhere it opens a regular expression.
_AWK_OPERAND_ENDS: Final = {")", "]", "$", "++", "--"}
_AWK_ESCAPES: Final = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "/": "/"}


def _awk_writes(args: Sequence[str], cwd: str, seen: _Script) -> _Program:
    """What an awk program writes and runs (_awk_program): the program of its -e and
    --source options and of its -f and -E files (read now), or its first operand; and the
    files gawk's -o, -p and -d write, named in their word."""
    program = _Program()
    texts: list[str] = []
    files: list[str] = []
    short, long = _AWK_VALUED
    operands: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            operands.extend(args[i:])
            break
        if arg.startswith(_AWK_OUTPUTS) or (arg[:2] in ("-o", "-p", "-d") and arg[2:]):
            program.names.append((arg.split("=", 1)[1] if "=" in arg else arg[2:], False))
        elif arg.startswith("--"):
            option, equals, value = arg.partition("=")
            if option in long and not equals:
                value = args[i] if i < len(args) else ""
                i += 1
            if option == "--source":
                texts.append(value)
            elif option in ("--file", "--exec"):
                files.append(value)
        elif arg.startswith("-") and arg != "-" and arg[1:2] in short:
            value = arg[2:]
            if not value:
                value = args[i] if i < len(args) else ""
                i += 1
            if arg[1] == "e":
                texts.append(value)
            elif arg[1] in "fE":
                files.append(value)
        elif not arg.startswith("-") or arg == "-":
            operands.append(arg)
    for file in files:
        text = _program_file(file, cwd, seen)
        if text is None:
            program.unread = True
        else:
            texts.append(text)
    if not texts and not files:
        texts = operands[:1]
    for text in texts:
        _awk_program(text, program)
    return program


def _awk_tokens(text: str) -> list[tuple[str, str]]:
    """An awk program's tokens (_AWK_TOKEN), a regular expression (`/…/` where an operand
    may begin) skipped as one."""
    tokens: list[tuple[str, str]] = []
    i = 0
    while i < len(text):
        found = _AWK_TOKEN.match(text, i)
        if found is None:  # never: `other` takes any character
            break
        kind = found.lastgroup or "other"
        token = found.group(0)
        i = found.end()
        if kind == "op" and token == "/":
            last = tokens[-1] if tokens else ("end", "")
            if last[0] not in ("name", "num", "str") and last[1] not in _AWK_OPERAND_ENDS:
                while i < len(text) and text[i] not in "/\n":  # to the regex's end
                    i += 2 if text[i] == "\\" else 1
                i += 1
                tokens.append(("num", "0"))  # a value, as far as the rest is concerned
                continue
        if kind in ("str", "name", "num", "op", "end"):
            tokens.append((kind, token))
    return tokens


def _awk_string(token: str) -> str:
    """An awk string literal's value (its quotes off, its escapes decoded)."""
    return re.sub(r"\\(.)", lambda m: _AWK_ESCAPES.get(m.group(1), m.group(1)), token[1:-1])


def _awk_value(tokens: Sequence[tuple[str, str]], program: _Program) -> str:
    """The text an awk expression makes of its string literals (concatenated, as awk
    joins what stands side by side); the program is marked as computing a name when
    anything else takes part (a variable, a field, a function)."""
    while len(tokens) > 1 and tokens[0] == ("op", "(") and tokens[-1] == ("op", ")"):
        tokens = tokens[1:-1]
    if not tokens or any(kind != "str" for kind, _ in tokens):
        program.computed = True
    return "".join(_awk_string(text) for kind, text in tokens if kind == "str")


def _awk_program(text: str, program: _Program) -> None:
    """What an awk program writes and runs, added to program: the target of each output
    redirection of print and printf (`> FILE`, `>> FILE`), outside parentheses (where `>`
    compares), and the commands of `| CMD` and `|& CMD` after them, of `CMD | getline`
    and of `system(CMD)`, each an expression whose string literals are read (_awk_value)."""
    tokens = _awk_tokens(text)
    i = 0
    while i < len(tokens):
        kind, token = tokens[i]
        if kind == "name" and token in ("print", "printf"):
            depth = 0
            j = i + 1
            while j < len(tokens):
                kind, token = tokens[j]
                if kind == "end" and depth == 0:
                    break
                if token in ("(", "["):
                    depth += 1
                elif token in (")", "]"):
                    depth -= 1
                    if depth < 0:
                        break
                elif token in ("{", "}") and depth <= 0:
                    break
                elif depth == 0 and kind == "op" and token in (">", ">>", "|", "|&"):
                    end = j + 1
                    while end < len(tokens) and tokens[end][0] != "end":
                        if tokens[end][1] in ("}", "{"):
                            break
                        end += 1
                    value = _awk_value(tokens[j + 1 : end], program)
                    if token.startswith(">"):
                        program.names.append((value, False))
                    else:
                        program.runs.append(value)
                    j = end
                    break
                j += 1
            i = max(j, i + 1)
            continue
        if kind == "name" and token == "system" and tokens[i + 1 : i + 2] == [("op", "(")]:
            depth, end = 0, i + 1
            while end < len(tokens):
                depth += tokens[end][1] == "("
                depth -= tokens[end][1] == ")"
                if depth == 0:
                    break
                end += 1
            program.runs.append(_awk_value(tokens[i + 1 : end + 1], program))
            i = end + 1
            continue
        if token in ("|", "|&") and tokens[i + 1 : i + 2] == [("name", "getline")]:
            start = i
            while start > 0 and tokens[start - 1][0] == "str":
                start -= 1
            before = tokens[start - 1] if start > 0 else ("end", "")
            if start == i or before[0] in ("name", "num") or before[1] in (")", "]", "$"):
                program.computed = True  # `cmd | getline`, `"ls " dir | getline`
            program.runs.append(_awk_value(tokens[start:i] or [("name", "")], program))
        i += 1


#: The editors that take Ex commands (-c CMD, +CMD, --cmd CMD, -S FILE; in Ex mode, or as
#: ed, from their standard input), and ed's, whose commands are one letter.
_EX_EDITORS: Final = {"ex", "vi", "vim", "nvim", "view", "gvim", "vimdiff", "rvim", "ed", "red"}
_ED: Final = {"ed", "red"}
#: An Ex command's range, its modifiers and its name: what comes before its argument.
_EX_RANGE = re.compile(
    r"[\s:]*(?:[%.$*]|[0-9]+|'[a-zA-Z<>\[\]]|/(?:[^/\\]|\\.)*/?|\?(?:[^?\\]|\\.)*\??"
    r"|[,;+\-])*\s*"
)
_EX_NAME = re.compile(r"([a-zA-Z]+|[!&~<>=@#])(!?)\s*")
#: Ex commands by what their argument is, each name with the shortest abbreviation vim
#: takes (`w[rite]`: `w`, `wr`…): a file they write (or that a later `:w` writes, as an
#: editor's operands are judged: `:e FILE`, `:file NAME`); a file with a default name
#: they write when none is given; a command they run through the shell (`:!CMD`); a
#: command they run themselves (`:g/re/CMD`, `:bufdo CMD`); code they run, whose writes
#: the guard does not read (`:exe`, `:lua`…); and the modifiers before a command.
_EX_WRITES: Final = (
    "w write wq wqa wqall x xit exi exit xa xall wa wall sav saveas up update wn wnext wN wNext "
    "wp wprevious e edit sp split vs vsplit new vne vnew tabe tabedit tabnew tabf tabfind "
    "fin find sf sfind vi visual vie view sv sview bad badd arga argadd ar args n next drop "
    "f file diffs diffsplit redi redir mks mksession mkv mkvimrc mk mkexrc mkvie mkview "
    "wv wviminfo wsh wshada"
)
_EX_DEFAULTS: Final = {"mksession": "Session.vim", "mkvimrc": ".vimrc", "mkexrc": ".exrc"}
_EX_SHELL: Final = "! r read te terminal"
_EX_RUNS: Final = (
    "g global v vglobal bufdo argdo windo tabdo cdo cfdo ldo lfdo "
    "sil silent uns unsilent keepa keepalt keepj keepjumps keepm keepmarks keepp keeppatterns "
    "loc lockmarks noa noautocmd nos noswapfile conf confirm bro browse vert vertical "
    "lefta leftabove abo aboveleft rightb rightbelow bel belowright to topleft bo botright "
    "tab hid hide san sandbox"
)
_EX_CODE: Final = (
    "exe execute cal call norm normal lua luado luafile py python pyt py3 python3 pyx "
    "pythonx pydo py3do pyf pyfile py3f py3file pe perl perld perldo rub ruby rubyd rubydo "
    "rubyf rubyfile tc tcl tcld tcldo tclf tclfile mz mzscheme mzf mzfile let so source "
    "ru runtime"
)
#: The code commands judged by their argument (the others run code the guard does not
#: read: `:exe`, `:lua`, `:source`…), and what that argument must name to count as
#: computing a write: a function or a key that writes or runs (`:call cursor(1, 1)`, `:norm
#: ggdG` write nothing of their own).
_EX_CODE_READ: Final = {"call", "normal", "let"}
_EX_CODE_WRITES = re.compile(
    r"writefile|delete|rename|mkdir|system|job_?start|termopen|term_start|libcall|execute|"
    r"feedkeys|:|\bZZ\b|lua|py|perl|ruby|tcl|source|runtime|!|>",
    re.I,
)


#: ed's commands that write, or run what follows them, as the Ex tables name them.
_ED_COMMANDS: Final = {
    "w": ("writes", "write"), "W": ("writes", "write"), "wq": ("writes", "wq"),
    "e": ("writes", "edit"), "E": ("writes", "edit"), "f": ("writes", "file"),
    "r": ("shell", "read"), "g": ("runs", "global"), "v": ("runs", "vglobal"),
    "G": ("runs", "global"), "V": ("runs", "vglobal"),
}  # fmt: skip


def _ex_range(line: str) -> int:
    """Where an Ex command's name begins in line, past a leading `:`, spaces and its
    range (_EX_RANGE, which matches the empty text too)."""
    found = _EX_RANGE.match(line)
    return found.end() if found is not None else 0


def _ex_table(names: str) -> list[tuple[str, int]]:
    """Full names with their shortest abbreviation's length, from pairs `w write` (the
    abbreviation, then the full name) or a name alone."""
    words = names.split()
    table: list[tuple[str, int]] = []
    i = 0
    while i < len(words):
        short = words[i]
        full = words[i + 1] if i + 1 < len(words) and words[i + 1].startswith(short) else short
        table.append((full, len(short)))
        i += 2 if full != short else 1
    return table


_EX_TABLES: Final = {
    kind: _ex_table(names)
    for kind, names in (
        ("writes", _EX_WRITES),
        ("shell", _EX_SHELL),
        ("runs", _EX_RUNS),
        ("code", _EX_CODE),
    )
}


#: Every abbreviation of the names in the tables, with (its table, its full name); the
#: first table naming one wins.
_EX_ABBREVIATIONS: Final = {
    full[:size]: (kind, full)
    for kind, table in reversed(_EX_TABLES.items())
    for full, shortest in reversed(table)
    for size in range(shortest, len(full) + 1)
}


def _ex_kind(name: str) -> tuple[str, str]:
    """(what an Ex command's argument is, the command's full name) for a name as written
    (`w`, `sav`, `!`); ("", name) for a command whose argument no table above names (`:s`,
    `:d`, `:q`), which writes no file of its own."""
    return _EX_ABBREVIATIONS.get(name, ("", name))


def _ex_file(argument: str, program: _Program) -> str:
    """The file an Ex command's argument names: its `++opt` words and a leading `>>`
    taken off, a backslash before a space or a backslash as vim reads it; a name vim
    expands (`%`, `#`, `<cfile>`, `$VAR`, a backquote) marks the program as computing it."""
    words = argument.split()
    while words and words[0].startswith("++"):
        words.pop(0)
    text = " ".join(words).lstrip(">").strip()
    if any(c in text for c in "%#<$`"):
        program.computed = True
    return re.sub(r"\\(.)", r"\1", text)


def _ex_commands(line: str, program: _Program, *, ed: bool = False, depth: int = 0) -> None:
    """What one line of Ex commands (separated by `|`), or one ed command, writes and runs,
    added to program."""
    rest = line
    while rest.strip() and depth <= 4:
        rest = rest[_ex_range(rest) :]
        found = _EX_NAME.match(rest)
        if found is None:
            return
        name, rest = found.group(1), rest[found.end() :]
        if ed and name[:1].isalpha():  # ed's commands are one letter (w, wq, W, e, E, f, r)
            size = 2 if name[:2] == "wq" else 1
            name, rest = name[:size], name[size:] + rest
            kind, full = _ED_COMMANDS.get(name, ("", name))
        else:
            kind, full = _ex_kind(name)
        if kind in ("runs", "code", "shell") or (kind == "writes" and rest.lstrip()[:1] == "!"):
            argument, rest = rest, ""  # the rest of the line is its argument, `|` included
        else:
            cut = re.search(r"(?<!\\)\|", rest)
            argument, rest = (rest[: cut.start()], rest[cut.end() :]) if cut else (rest, "")
        argument = argument.strip()
        if kind == "writes" and argument.startswith("!"):  # `:w !CMD`: CMD reads the buffer
            program.runs.append(argument[1:])
        elif kind == "writes" and full == "redir":
            if argument.startswith(">") and not argument.startswith("=>"):
                program.names.append((_ex_file(argument, program), False))
        elif kind == "writes" and (argument or full in _EX_DEFAULTS):
            if not (full == "mkview" and argument.isdigit()):
                program.names.append((_ex_file(argument, program) or _EX_DEFAULTS[full], False))
        elif kind == "shell" and (full != "read" or argument.startswith("!")):
            program.runs.append(argument.removeprefix("!") if full == "read" else argument)
        elif kind == "code" and (full not in _EX_CODE_READ or _EX_CODE_WRITES.search(argument)):
            program.computed = True
        elif kind == "runs" and full in ("global", "vglobal") and argument[:1]:
            close = argument.find(argument[0], 1)  # `g/re/CMD`: its command after the pattern
            inner = argument[close + 1 :] if close > 0 else ""
            _ex_commands(inner, program, ed=ed, depth=depth + 1)
        elif kind == "runs":
            _ex_commands(argument, program, ed=ed, depth=depth + 1)


def _ex_script(text: str, program: _Program, *, ed: bool = False) -> None:
    """What an Ex (or ed) script's lines write and run; the text a line opening an insert
    (`a`, `i`, `c`, `append`…) adds, up to a line `.`, is text."""
    inserting = False
    for line in text.splitlines():
        if len(program.names) > MAX_PATCH_NAMES:
            return  # _programmed judges no more than that
        if inserting:
            inserting = line.strip() != "."
            continue
        found = _EX_NAME.match(line[_ex_range(line) :])
        if found is not None and found.group(1) in ("a", "i", "c", "append", "insert", "change"):
            inserting = True
            continue
        _ex_commands(line, program, ed=ed)


def _editor_writes(
    name: str, args: Sequence[str], fed: _Fed, here: str, cwd: str, seen: _Script
) -> _Program:
    """What an editor's own commands write and run (its operands are judged as written
    beside this): vim's, ex's and vi's -c CMD, --cmd CMD and +CMD, the script -S FILE
    sources (Session.vim when none follows), and, for ed or in Ex mode (-e, -E, -es), the
    commands of its standard input: a here-document's or here-string's text, a file's
    (`< FILE`), or none the guard can read (a pipe: any name where it runs)."""
    program = _Program()
    ed = name in _ED
    ex_mode = ed or name == "ex"
    scripts: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            break
        if ed:
            continue
        if arg in ("-c", "--cmd"):
            _ex_commands(args[i] if i < len(args) else "", program)
            i += 1
        elif arg.startswith("+") and arg[1:] and not arg[1:].isdigit() and arg[1] != "/":
            _ex_commands(arg[1:], program)
        elif arg == "-S":
            following = args[i] if i < len(args) and not args[i].startswith(("-", "+")) else ""
            scripts.append(following or "Session.vim")
            i += bool(following)
        elif arg.startswith("-") and not arg.startswith("--") and set(arg[1:]) & set("eE"):
            ex_mode = True
    for file in scripts:
        text = _program_file(file, cwd, seen)
        if text is None:
            program.unread = True
        else:
            _ex_script(text, program)
    if ex_mode and fed is not None:
        if fed[0] == "file":
            text = _program_file(fed[1], here, seen)
        else:
            text = _fed_text(fed, seen) if fed[0] in ("here", "string") else None
        if text is None:
            program.computed = True  # commands from a pipe, or a text the shell expands
        else:
            _ex_script(text, program, ed=ed)
    return program


#: perl, as a command names it (`perl`, `perl5.36`).
_PERL = re.compile(r"perl[0-9.]*")
#: The most tokens of a Perl program the arguments of its calls are read from, in all (a
#: call's arguments may run to the program's end; one of a few thousand characters calling
#: `open(` a thousand times took seconds): past it, the program counts as computing names.
PROGRAM_READ: Final = 50_000
#: Perl's options that take the rest of their word as their value (`-i.bak`, `-MFoo`),
#: and those that take digits (`-l0`, `-0777`).
_PERL_REST: Final = "iIMmxdDCFV"
_PERL_DIGITS: Final = "l0"
#: A Perl program as tokens (_perl_tokens): (kind, text), the kinds str (a literal, its
#: value), computed (a string that interpolates, a variable, a number's neighbour…), run
#: (a command in backquotes or qx), name, op; spaces, comments and patterns left out.
_PERL_TOKEN = re.compile(
    r"(?P<space>\s+)|(?P<comment>\#[^\n]*)"
    r"|(?P<var>[$@%&*]\#?(?:\{\^?\w*\}|\^\w|[\w:]+|[^\s\w{]))"
    r"|(?P<quote>\b(?:qq|qw|qx|q|m|s|tr|y)\b\s*(?=[^\w\s=,;)]))"
    r"|(?P<name>[A-Za-z_][\w:]*)|(?P<num>[0-9][\w.]*)"
    r"|(?P<sq>'(?:[^'\\]|\\.)*')|(?P<dq>\"(?:[^\"\\]|\\.)*\")|(?P<bq>`(?:[^`\\]|\\.)*`)"
    r"|(?P<op>=>|->|\|\||&&|//|::|[-+*/.,;(){}\[\]<>=!~?:|&^%\\])|(?P<other>.)",
    re.S,
)
_PERL_PAIRS: Final = {"(": ")", "[": "]", "{": "}", "<": ">"}
_PERL_ESCAPES: Final = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "e": "\x1b", "a": "\a"}
#: Perl's functions (and File::Copy's, File::Path's) that write or remove files: which of
#: their arguments they write (from that one on, or only that one), and which they remove.
_PERL_WRITERS: Final = {
    "rename": ((1,), (0,)), "unlink": ((), ("*",)), "rmdir": ((), ("*",)),
    "mkdir": ((0,), ()), "truncate": ((0,), ()), "link": ((0, 1), ()),
    "symlink": ((0, 1), ()), "chmod": (("1*",), ()), "chown": (("2*",), ()),
    "utime": (("2*",), ()), "sysopen": ((1,), ()), "copy": ((1,), ()), "cp": ((1,), ()),
    "move": ((1,), (0,)), "mv": ((1,), (0,)), "make_path": (("*",), ()),
    "mkpath": (("*",), ()), "remove_tree": ((), ("*",)), "rmtree": ((), ("*",)),
    "dbmopen": ((1,), ()),
}  # fmt: skip
#: What ends the arguments of a list operator called without parentheses.
_PERL_ENDS: Final = {";", "}", ")", "]", "or", "and", "xor", "if", "unless", "while", "until",
                     "for", "foreach"}  # fmt: skip


def _perl_writes(args: Sequence[str]) -> _Program:
    """What a Perl one-liner (its -e and -E programs) writes and runs itself
    (_perl_program); a program from a script file is not read (a script the command runs)."""
    program = _Program()
    texts: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--" or not arg.startswith("-") or arg == "-":
            break
        j = 1
        while j < len(arg):
            letter = arg[j]
            if letter in "eE":
                value = arg[j + 1 :]
                if not value:
                    value = args[i] if i < len(args) else ""
                    i += 1
                texts.append(value)
                break
            if letter in _PERL_REST:
                break
            j += 1
            if letter in _PERL_DIGITS:
                while j < len(arg) and (arg[j].isdigit() or arg[j] in "xX"):
                    j += 1
    for text in texts:
        _perl_program(text, program)
    return program


def _perl_quoted(text: str, start: int) -> tuple[str, int]:
    """The body of a quote-like operator's delimited part starting at start (its opening
    delimiter), and where it ends; a bracket nests."""
    opening = text[start]
    closing = _PERL_PAIRS.get(opening, opening)
    depth = 0
    i = start + 1
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == closing and depth == 0:
            return text[start + 1 : i], i + 1
        if opening != closing and c == opening:
            depth += 1
        elif opening != closing and c == closing:
            depth -= 1
        i += 1
    return text[start + 1 :], len(text)


def _perl_string(body: str, interpolates: bool) -> tuple[str, str]:
    """(kind, value) of a Perl string's body: str with its value when it is literal (single
    quotes, or double ones with no `$` or `@` to interpolate), else computed."""
    if interpolates and re.search(r"(?<!\\)[$@][\w{:]", body):
        return "computed", ""
    if interpolates:
        return "str", re.sub(r"\\(.)", lambda m: _PERL_ESCAPES.get(m.group(1), m.group(1)), body)
    return "str", re.sub(r"\\([\\'])", r"\1", body)


def _perl_tokens(text: str) -> list[tuple[str, str]]:
    """A Perl program's tokens (_PERL_TOKEN): strings as their values, quote-like
    operators read by their delimiters (q, qq, qw as strings, qx as a command, m, s, tr and
    y, like a `/…/` where an operand may begin, as patterns left out)."""
    tokens: list[tuple[str, str]] = []
    i = 0
    while i < len(text):
        found = _PERL_TOKEN.match(text, i)
        if found is None:
            break
        kind = found.lastgroup or "other"
        token = found.group(0)
        i = found.end()
        last = tokens[-1] if tokens else ("op", ";")
        operand = last[0] in ("str", "computed", "run", "num") or last[1] in (")", "]", "}")
        if kind == "quote" or (kind == "op" and token == "/" and not operand):
            op = token.strip() if kind == "quote" else "m"
            start = i if kind == "quote" else i - 1
            if start >= len(text):
                break
            body, i = _perl_quoted(text, start)
            if op in ("s", "tr", "y"):  # a second part: after the first, or its own pair
                second = i - 1 if text[start] not in _PERL_PAIRS else i
                while second < len(text) and text[second].isspace():
                    second += 1
                if second < len(text):
                    _, i = _perl_quoted(text, second)
            if op == "q":
                tokens.append(_perl_string(body, False))
            elif op == "qq":
                tokens.append(_perl_string(body, True))
            elif op == "qw":
                for word in body.split():
                    tokens.extend([("str", word), ("op", ",")])
                if body.split():
                    tokens.pop()
            elif op == "qx":
                tokens.append(("run", body) if text[start] == "'" else _perl_run(body))
            else:
                tokens.append(("computed", ""))  # a match's result
            continue
        if kind == "sq":
            tokens.append(_perl_string(token[1:-1], False))
        elif kind == "dq":
            tokens.append(_perl_string(token[1:-1], True))
        elif kind == "bq":
            tokens.append(_perl_run(token[1:-1]))
        elif kind == "var":
            tokens.append(("computed", token))
        elif kind in ("name", "num", "op"):
            tokens.append((kind, token))
    return tokens


def _perl_run(body: str) -> tuple[str, str]:
    """A command in backquotes or qx: run, with its text, when it interpolates nothing."""
    kind, value = _perl_string(body, True)
    return ("run", value) if kind == "str" else ("computed", "")


def _perl_arguments(
    tokens: Sequence[tuple[str, str]], start: int, room: int
) -> tuple[list[list[tuple[str, str]]], int]:
    """The arguments of the call whose name is at start - 1 (each its tokens), in
    parentheses or, for a list operator, up to what ends it (_PERL_ENDS), and where
    they end: at most room tokens are read."""
    i = start
    parenthesized = tokens[i : i + 1] == [("op", "(")]
    i += parenthesized
    depth = 0
    arguments: list[list[tuple[str, str]]] = [[]]
    while i < min(len(tokens), start + room):
        kind, token = tokens[i]
        if depth == 0 and (
            (parenthesized and token == ")") or (not parenthesized and token in _PERL_ENDS)
        ):
            break
        if kind == "op" and token in ("(", "[", "{"):
            depth += 1
        elif kind == "op" and token in (")", "]", "}"):
            depth -= 1
        if depth == 0 and kind == "op" and token in (",", "=>"):
            arguments.append([])
        else:
            arguments[-1].append((kind, token))
        i += 1
    return [argument for argument in arguments if argument], i + parenthesized


def _perl_value(argument: Sequence[tuple[str, str]], program: _Program) -> str:
    """The text an argument spells: its literal strings joined (`"a" . "b"`); the program
    is marked as computing a name when anything else takes part."""
    joined = (".", "(", ")")
    if not all(kind == "str" or (kind == "op" and token in joined) for kind, token in argument):
        program.computed = True
    return "".join(token for kind, token in argument if kind == "str")


def _perl_program(text: str, program: _Program) -> None:
    """What a Perl program writes and runs itself, added to program: the files the
    functions of _PERL_WRITERS write or remove, those `open` writes (a mode `>`, `>>`,
    `+<`, `+>`, alone or before the name in two-argument form), the commands of a piped
    open, of `system` and `exec` (a list of literals joined as one command), and of
    backquotes and qx; a function called with no literal argument (`unlink` of `$_`, a
    variable) marks the program as computing a name."""
    tokens = _perl_tokens(text)
    room = PROGRAM_READ  # the tokens the calls' arguments may take, in all
    for i, (kind, token) in enumerate(tokens):
        if room <= 0:  # past it, what is left counts as computed: any name where it runs
            program.computed = True
            return
        if kind == "run":
            program.runs.append(token)
        if kind != "name" or (i and tokens[i - 1][1] in ("->", "{", "&", "sub")):
            continue
        if tokens[i + 1 : i + 2] in ([("op", "=>")], [("op", "}")], [("op", "::")]):
            continue  # a hash key, a package name
        if token in _PERL_WRITERS:
            written, removed = _PERL_WRITERS[token]
            arguments, end = _perl_arguments(tokens, i + 1, room)
            room -= end - i
            if not arguments:
                program.computed = True  # `unlink;`: $_
            for n, argument in enumerate(arguments):
                writes = any(
                    n == w or (isinstance(w, str) and n >= int(w[:-1] or 0)) for w in written
                )
                gone = any(n == r or r == "*" for r in removed)
                if writes or gone:
                    program.names.append((_perl_value(argument, program), gone and not writes))
        elif token == "open":
            arguments, end = _perl_arguments(tokens, i + 1, room)
            room -= end - i
            _perl_open(arguments[1:], program)
        elif token in ("system", "exec"):
            arguments, end = _perl_arguments(tokens, i + 1, room)
            room -= end - i
            if arguments and arguments[0][:1] == [("op", "{")]:
                program.computed = True  # `system { $prog } LIST`
                continue
            words = [_perl_value(argument, program) for argument in arguments]
            if words:
                program.runs.append(words[0] if len(words) == 1 else shlex.join(words))


def _perl_open(arguments: Sequence[Sequence[tuple[str, str]]], program: _Program) -> None:
    """What `open` (its arguments after the handle) writes or runs: with a mode and a name,
    the name when the mode writes (`>`, `>>`, `+<`, `+>`) and the command when it pipes
    (`|-`, `-|`); with one argument, the mode spelled before the name (`">x"`) or a pipe
    (`"| cmd"`, `"cmd |"`)."""
    if not arguments:
        return
    mode = _perl_value(arguments[0], program).strip()
    if len(arguments) > 1:
        if mode.startswith("<") and "|" not in mode:
            return  # read
        rest = [_perl_value(argument, program) for argument in arguments[1:]]
        if mode.startswith(("|", "-|")) or mode.endswith("|"):
            program.runs.append(rest[0] if len(rest) == 1 else shlex.join(rest))
        else:  # `>`, `>>`, `+<`, `+>`, or a mode it computes
            program.names.append((rest[0], False))
        return
    if mode.startswith("|") or mode.endswith("|"):
        program.runs.append(mode.strip("|").strip())
    elif mode.startswith((">", "+<", "+>")):
        program.names.append((mode.lstrip("+>").strip(), False))


def _typescripts(args: Sequence[str]) -> list[str]:
    """What `script` writes: its file operand (`typescript` when none), and its logs
    (-O, -I, -B, -T and their long spellings)."""
    logs = _option_values(args, "OIBT", ("--log-out", "--log-in", "--log-io", "--log-timing"))
    return [*(_operands(args, *_SCRIPT_VALUED)[:1] or ["typescript"]), *logs]


def _to_stdout(args: Sequence[str]) -> bool:
    """Whether a compressor writes to the standard output (-c, --stdout, --to-stdout), or
    only tests or lists (-t, -l), leaving the files it is given as they are."""
    return any(
        a in ("--stdout", "--to-stdout", "--test", "--list")
        or (a.startswith("-") and not a.startswith("--") and any(c in a for c in "ctl"))
        for a in args
    )


def _from_revision(sub: str, args: Sequence[str]) -> bool:
    """Whether `git checkout` or `git restore` writes its paths from a revision (`git checkout
    REV -- .`, `git restore --source=REV .`, and `git restore --staged --worktree .`, whose
    source is then HEAD): the tree it writes replaces what lies below them, a memory folder
    included, as removing them would; from the index (`git checkout -- .`, `git restore .`,
    `git checkout -f .`, whose -f only skips unmerged entries) it restores what was staged,
    and is judged as a write of its paths."""
    if sub == "restore":
        ended = args.index("--") if "--" in args else len(args)
        options = [a for a in args[:ended] if a.startswith("-")]
        short = "".join(a[1:] for a in options if not a.startswith("--"))
        if "s" in short or any(a.startswith("--source") for a in options):
            return True
        staged = "--staged" in options or "S" in short
        return staged and ("--worktree" in options or "W" in short)
    if sub != "checkout":
        return False
    operands: list[str] = []
    for arg in args:
        if arg == "--":
            return bool(operands)
        if not arg.startswith("-"):
            operands.append(arg)
    return len(operands) > 1


#: git's subcommands whose diff options write their output where --output says.
_GIT_DIFFS: Final = {"diff", "show", "log", "whatchanged", "diff-tree", "diff-files",
                     "diff-index", "range-diff"}  # fmt: skip
#: What git makes at a path it is given (a repository, a worktree, a bundle), and the short
#: and long options of each that take a value.
_GIT_MAKERS: Final = {
    "clone": ("obucj", ("--origin", "--branch", "--upload-pack", "--config", "--depth",
                        "--reference", "--reference-if-able", "--separate-git-dir",
                        "--template", "--jobs", "--filter", "--shallow-since",
                        "--shallow-exclude", "--server-option", "--bundle-uri",
                        "--ref-format")),
    "init": ("b", ("--template", "--separate-git-dir", "--object-format", "--ref-format",
                   "--initial-branch")),
    "worktree": ("bB", ("--reason",)),
    "submodule": ("b", ("--name", "--reference", "--depth")),
    "bundle": ("", ("--version",)),
}  # fmt: skip


def _git_made(sub: str, args: Sequence[str]) -> list[str]:
    """The file or folder a git command makes where it is told: the --output of a diff
    (`git diff --output=FILE`), the repository `git clone URL DIR` and `git init DIR` make
    (clone's from the URL's last part, init's in the folder it runs in, when none is
    given), the folder of `git worktree add PATH` and of `git submodule add URL [PATH]`, and
    the file of `git bundle create FILE`."""
    if sub in _GIT_DIFFS:
        return _option_values(args, "", ("--output",))
    if sub not in _GIT_MAKERS:
        return []
    operands = _operands(args, *_GIT_MAKERS[sub])
    if sub == "init":
        return operands[:1] or [os.curdir]
    if sub == "submodule" and operands[:1] == ["add"]:
        operands = operands[1:]  # then as clone's: URL [PATH]
    elif sub == "submodule" or (sub != "clone" and operands[:1] not in (["add"], ["create"])):
        return []  # `git worktree list`, `git bundle verify`…
    elif sub != "clone":
        return operands[1:2]  # `git worktree add PATH`, `git bundle create FILE`
    url = operands[0] if operands else ""
    named = os.path.basename(url.rstrip("/").removesuffix("/.git")).removesuffix(".git")
    return operands[1:2] or ([named] if named else [])


#: What `git sparse-checkout` does without changing the work tree: lists its patterns, or
#: says which paths they take ('' for no subcommand, which git refuses, or -h).
_SPARSE_READS: Final = {"", "list", "check-rules"}
#: What `git stash pop|apply|branch` may name that is an entry of the stash (`stash@{1}`, `1`).
_STASH_ENTRY = re.compile(r"(?:refs/)?stash(?:@\{[0-9]+\})?|[0-9]+")


def _git_replaced(sub: str, args: Sequence[str], cwd: str = os.curdir) -> list[_Pathspec]:
    """What git replaces or cleans in the work tree beyond the paths _GIT_WRITERS name: the
    whole work tree (`:/`) for `git reset --hard`, `git checkout -f` and `git switch -f` (or
    --discard-changes) with no path, which write every tracked file from a commit over what
    the work tree holds, and `git switch --orphan`, which removes them all, and for `git
    stash pop|apply|branch` of a revision that is no entry of the stash (its changes
    written from a commit the guard cannot read); for `git clean`
    (but -n, --dry-run), the folders it is given, or the one it runs in, whose untracked
    files it removes.  Not `git reset` without --hard (the index and HEAD only), `--keep`
    or `--merge` (which keep the work tree's changes, as a branch switch does), nor a stash
    entry popped (what the work tree held when stashed).  `git sparse-checkout` (but list
    and check-rules) rewrites the whole work tree too: `set`, `add`, `reapply` and `init`
    (whose patterns keep only the top's files) remove what its patterns leave out, a memory
    folder among them, and `disable` writes back what they had left out."""
    whole = [_Pathspec(".", top=True)]
    operands = _operands(args, "e" if sub == "clean" else "", ("--exclude",))
    if sub == "reset":
        return whole if "--hard" in args else []
    if sub == "switch":  # --orphan removes every tracked file from the work tree
        replaces = {"-f", "--force", "--discard-changes", "--orphan"} & set(args)
        return whole if replaces or any(a.startswith("--orphan=") for a in args) else []
    if sub == "checkout":
        forced = bool({"-f", "--force"} & set(args)) and "--" not in args
        if operands and _names_a_path(operands[0], cwd):
            return []  # `git checkout -f .`: a path, restored from the index as without -f
        return whole if forced and len(operands) <= 1 else []
    if sub == "sparse-checkout":  # all but list and check-rules rewrite the work tree
        action = operands[0] if operands else ""
        return whole if action not in _SPARSE_READS else []
    if sub == "stash":
        action = operands[0] if operands else "push"
        named = operands[2 if action == "branch" else 1 :]
        applies = action in ("pop", "apply", "branch")
        return whole if applies and not all(map(_STASH_ENTRY.fullmatch, named)) else []
    if sub != "clean" or _clean_dry_run(args):
        return []
    specs = [spec for spec in map(_pathspec, operands) if spec is not None]
    spared = [_excluded(word) for word in operands]
    removes_ignored = any(  # -X: what -e names is then what it removes
        a.startswith("-") and not a.startswith("--") and "X" in a[1:].split("e", 1)[0] for a in args
    )
    if not removes_ignored:
        spared += _option_values(args, "e", ("--exclude",))
    left = tuple(p for p in spared if p)
    return [  # none, or only exclusions: the folder it runs in
        _Pathspec(spec, top=spec.top, wild=spec.wild, spared=left)
        for spec in specs or [_Pathspec(".")]
    ]


def _git_from_index(sub: str, args: Sequence[str]) -> list[tuple[_Pathspec, bool]]:
    """What `git read-tree -u` and `git checkout-index` write in the work tree, with whether
    it is replaced whole.  read-tree -u (with -m, --reset, or alone): the tree it reads,
    over the whole work tree from its top as `git reset --hard` writes it, or below its
    --prefix (a path from the top); not without -u (the index only) or with -n
    (--dry-run).  checkout-index: the index's files written at the top of the work tree
    after its --prefix (the folder before the prefix's last `/`, a path from the top, holds
    them all): every one for -a (--all) or --stdin, replaced below that folder; the paths
    it names (relative to the folder it runs in) as git checkout's, from the index, when it
    has no prefix, else below that folder; none with --temp (temporary files at the top)."""
    ended = list(args).index("--") if "--" in args else len(args)
    short = "".join(a[1:] for a in args[:ended] if a.startswith("-") and not a.startswith("--"))
    prefixes = _option_values(args, "", ("--prefix",))[-1:]
    folder = prefixes[0] if prefixes[0:1] and prefixes[0].endswith("/") else ""
    folder = folder or (os.path.dirname(prefixes[0]) if prefixes else "") or os.curdir
    if sub == "read-tree":
        if "u" not in short or "n" in short or "--dry-run" in args:
            return []
        return [(_Pathspec(folder, top=True), True)]
    if "--temp" in args:
        return []
    named = _operands(args, "", ("--prefix", "--stage"))
    if "a" in short or {"--all", "--stdin"} & set(args) or (prefixes and named):
        return [(_Pathspec(folder, top=True), True)]
    return [(spec, False) for spec in map(_pathspec, named) if spec is not None]


def _names_a_path(word: str, cwd: str) -> bool:
    """Whether git checkout takes its one operand for a path rather than a branch: one
    that exists in the folder it runs in (when it is a revision too, git refuses to guess
    and writes nothing), or one with a pathspec's magic (`:/`, `:(top)`); `.` among them."""
    if word.startswith(":"):
        return True
    if "\0" in word:
        return False  # no path holds one
    return os.path.lexists(os.path.join(cwd, _home(word)))


def _excluded(word: str) -> str:
    """What a pathspec excludes (`:!x`, `:^x`, `:(exclude)x`), '' for one that is none."""
    if word.startswith((":!", ":^")):
        return word[2:].removeprefix(":")
    if word.startswith(":(") and ")" in word:
        magic = {m.split(":", 1)[0].strip() for m in word[2 : word.index(")")].split(",")}
        return word[word.index(")") + 1 :] if "exclude" in magic else ""
    return ""


def _clean_dry_run(args: Sequence[str]) -> bool:
    """Whether `git clean` only says what it would remove: -n (in a cluster too, before the
    -e that takes the rest of the word), --dry-run."""
    value = False  # the word is the value of the -e before it
    for arg in args:
        if arg == "--":
            return False
        if arg == "--dry-run" or (
            not value and arg[:1] == "-" and arg[1:2] != "-" and "n" in arg[1:].split("e", 1)[0]
        ):
            return True
        short = arg.startswith("-") and not arg.startswith("--")
        value = not value and (arg == "--exclude" or (short and arg.endswith("e")))
    return False


def _operands(args: Sequence[str], short: str = "", long: Sequence[str] = ()) -> list[str]:
    """A command's operands: its options left out with the values they take (a short option
    in short, the rest of its word or else the next word; a long one in long, after `=` or
    else the next word), every word after `--` kept."""
    out: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            out.extend(args[i:])
            break
        if arg.startswith("--"):
            i += arg in long
        elif arg.startswith("-") and arg != "-":
            at = next((j for j, c in enumerate(arg[1:], 1) if c in short), None)
            i += at == len(arg) - 1
        else:
            out.append(arg)
    return out


#: git's own options whose value may be the next word (`git --work-tree . checkout …`).
_GIT_VALUED: Final = {
    "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env",
    "--attr-source",
}  # fmt: skip


def _git_subcommand(args: list[str], cwd: str) -> tuple[str, list[str], str] | None:
    """git's subcommand, its arguments, and the folder they are relative to (`-C`)."""
    i = 0
    while i < len(args) and args[i].startswith("-"):
        if args[i] == "-C" and i + 1 < len(args):
            cwd = os.path.join(cwd, _home(args[i + 1]))
        i += 2 if args[i] in _GIT_VALUED else 1
    return (args[i], args[i + 1 :], cwd) if i < len(args) else None
