// Does not compile: a statement lacks its semicolon.
#include <cstdio>

int main() {
    long long total = 0
    std::printf("%lld\n", total);
}
