// Dies of SIGSEGV.
#include <cstdio>

int main() {
    int n;
    std::scanf("%d", &n);
    volatile int *p = nullptr;
    *p = n;
    std::printf("%d\n", *p);
}
