//! The hostile corpus: programs that attack the sandbox or exhaust a limit, each with the
//! verdicts it may get on the add package (two numbers on a line, their sum; 1 s, 64 MiB,
//! compiles limited to 20 s and 256 MiB). `judge run` judges it in `cli.rs`; the reward
//! service (`judge/sandbox/tests/hostile.rs`) runs it through its APIs, this file
//! included by path so that both read one list.

/// Hostile programs: an attack the sandbox stops leaves the honest part to be judged; one
/// that exhausts a limit gets that limit's verdict; nothing may be left running.
pub(crate) const HOSTILE: &[(&str, &str, &str)] = &[
    (
        // Whichever limit it reaches first: the CPU time, or the memory of its 256
        // processes (the pids limit) against the package's 64 MiB, as the machine's load
        // decides (CI saw MLE once on a loaded machine).
        "forkbomb.c",
        "TLE|MLE",
        "#include <unistd.h>\nint main(void){ for (;;) fork(); }\n",
    ),
    (
        "shadow.py",
        "AC",
        "try:\n    open('/etc/shadow').read()\n    print('leak')\nexcept OSError:\n    a, b = map(int, input().split())\n    print(a + b)\n",
    ),
    (
        "network.py",
        "AC",
        "import socket\ntry:\n    socket.create_connection(('1.1.1.1', 80), timeout=1)\n    print('net')\nexcept OSError:\n    a, b = map(int, input().split())\n    print(a + b)\n",
    ),
    (
        "answers.py",
        "AC",
        "import os\nseen = []\nfor d in ['/judge/in', '/judge/out', '/judge/ans']:\n    try:\n        seen += os.listdir(d)\n    except OSError:\n        pass\na, b = map(int, input().split())\nprint(a + b if not seen else seen)\n",
    ),
    (
        "killall.py",
        "AC",
        "import os, signal\ntry:\n    os.kill(-1, signal.SIGKILL)\nexcept OSError:\n    pass\na, b = map(int, input().split())\nprint(a + b)\n",
    ),
    (
        "background.c",
        "AC",
        "#include <stdio.h>\n#include <unistd.h>\nint main(void){ long a, b; if (scanf(\"%ld %ld\", &a, &b) != 2) return 1; if (fork() == 0) { setsid(); for (;;) sleep(1); } printf(\"%ld\\n\", a + b); return 0; }\n",
    ),
    (
        "closed.c",
        "AC",
        "#include <stdio.h>\n#include <unistd.h>\nint main(void){ long a, b; if (scanf(\"%ld %ld\", &a, &b) != 2) return 1; printf(\"%ld\\n\", a + b); fflush(stdout); close(0); close(1); close(2); return 0; }\n",
    ),
    (
        "links.py",
        "AC",
        "import os\nfor target, name in [('/etc/passwd', '/box/collected'), ('/etc', '/box/etc')]:\n    try:\n        if os.path.lexists(name):\n            os.remove(name)\n        os.symlink(target, name)\n    except OSError:\n        pass\na, b = map(int, input().split())\nprint(a + b)\n",
    ),
    (
        "deep.cpp",
        "AC",
        "#include <cstdio>\nlong f(long n) { volatile char pad[64]; pad[0] = (char)n; return n == 0 ? 0 : 1 + f(n - 1) + pad[0] * 0; }\nint main() { long a, b; if (scanf(\"%ld %ld\", &a, &b) != 2) return 1; printf(\"%ld\\n\", a + b + f(400000) - 400000); }\n",
    ),
    (
        "urandom.cpp",
        "CE",
        "#include \"/dev/urandom\"\nint main() {}\n",
    ),
    (
        "hardlinks.c",
        "AC",
        "#define _GNU_SOURCE\n#include <fcntl.h>\n#include <stdio.h>\n#include <unistd.h>\nint main(void) {\n    const char *targets[] = {\"/etc/passwd\", \"/etc/shadow\", \"/judge/supervisor\", \"/proc/self/fd/0\", \"/proc/self/fd/1\", \"/judge/in\", \"/usr/bin/gcc\"};\n    int linked = 0;\n    char name[32];\n    for (int i = 0; i < 7; i++) {\n        snprintf(name, sizeof name, \"/box/link%d\", i);\n        if (linkat(AT_FDCWD, targets[i], AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0) { printf(\"linked %s\\n\", targets[i]); linked = 1; }\n        snprintf(name, sizeof name, \"/tmp/link%d\", i);\n        if (linkat(AT_FDCWD, targets[i], AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0) { printf(\"linked %s in /tmp\\n\", targets[i]); linked = 1; }\n    }\n    if (linkat(0, \"\", AT_FDCWD, \"/box/input\", AT_EMPTY_PATH) == 0 || linkat(1, \"\", AT_FDCWD, \"/box/output\", AT_EMPTY_PATH) == 0) { puts(\"linked a descriptor\"); linked = 1; }\n    long a, b;\n    if (linked || scanf(\"%ld %ld\", &a, &b) != 2) return 0;\n    printf(\"%ld\\n\", a + b);\n    return 0;\n}\n",
    ),
    (
        "supervisor.c",
        "AC",
        "#include <signal.h>\n#include <stdio.h>\n#include <sys/ptrace.h>\n#include <unistd.h>\nint main(void) {\n    int escaped = 0;\n    pid_t parent = getppid();\n    if (kill(parent, SIGKILL) == 0) escaped = 1;\n    if (kill(1, SIGKILL) == 0) escaped = 1;\n    if (ptrace(PTRACE_ATTACH, parent, 0, 0) == 0) escaped = 1;\n    if (setuid(0) == 0) escaped = 1;\n    kill(-1, SIGKILL);\n    long a, b;\n    if (scanf(\"%ld %ld\", &a, &b) != 2) return 1;\n    if (escaped) puts(\"escaped\"); else printf(\"%ld\\n\", a + b);\n    return 0;\n}\n",
    ),
    // `kill -9 -1` from a shell kills every process of the sandbox user but the shell:
    // the program itself too, which is its own doing (RTE).
    (
        "kill9.c",
        "RTE",
        "#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n    long a, b;\n    if (scanf(\"%ld %ld\", &a, &b) != 2) return 1;\n    printf(\"%ld\\n\", a + b);\n    fflush(stdout);\n    return system(\"kill -9 -1\");\n}\n",
    ),
    // 1 TiB of static array: it compiles, and the kernel cannot map it (SIGSEGV at start).
    (
        "huge_bss.cpp",
        "RTE",
        "#include <cstdio>\nstatic char big[1ul << 40];\nint main() { long a, b; if (scanf(\"%ld %ld\", &a, &b) != 2) return 1; big[a & 4095] = 1; printf(\"%ld\\n\", a + b + big[4096]); }\n",
    ),
    (
        "huge_touched.cpp",
        "MLE",
        "#include <cstdio>\n#include <cstring>\nstatic char big[1ul << 30];\nint main() { long a, b; if (scanf(\"%ld %ld\", &a, &b) != 2) return 1; memset(big, 1, sizeof big); printf(\"%ld\\n\", a + b + big[a & 4095] - 1); }\n",
    ),
    // Each step triples the type: the compiler runs out of the compile memory limit.
    (
        "templates.cpp",
        "CE",
        "#include <tuple>\ntemplate <class T> struct Grow { using type = typename Grow<std::tuple<T, T, T>>::type; };\nint main() { Grow<int>::type x; (void)x; }\n",
    ),
    // Tries to fill the work folder with files (1 GiB at most). The work folder is
    // read-only to the program (`allow_file_writing: false`, the package format's
    // default): the first write fails and the honest part is judged. (It is a tmpfs on both
    // backends besides, whose pages count towards the memory cgroup: with /box a host
    // folder, bubblewrap once wrote gigabytes.)
    (
        "fill.c",
        "AC",
        "#include <fcntl.h>\n#include <stdio.h>\n#include <string.h>\n#include <unistd.h>\nint main(void) {\n    static char block[1 << 20];\n    memset(block, 'x', sizeof block);\n    char name[64];\n    for (int i = 0; i < 1024; i++) {\n        snprintf(name, sizeof name, \"/box/fill%d\", i);\n        int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0600);\n        if (fd < 0) break;\n        long n = write(fd, block, sizeof block);\n        close(fd);\n        if (n != (long)sizeof block) break;\n    }\n    long a, b;\n    if (scanf(\"%ld %ld\", &a, &b) != 2) return 1;\n    printf(\"%ld\\n\", a + b);\n    return 0;\n}\n",
    ),
];
