// Misreads the task as "print rows until done" and never stops: output grows without bound.
#include <cstdio>

int main() {
    int n;
    std::scanf("%d", &n);
    static char line[4096];
    for (int i = 0; i < 4095; i++) line[i] = (i % 2) ? ' ' : '1';
    line[4095] = '\n';
    for (;;) std::fwrite(line, 1, sizeof line, stdout);
}
