// Asks the same question over and over: the interactor rejects the 31st question and
// leaves; this program then reads the end of its input and aborts. The rejection came
// first, so the verdict is WA, not RTE.
#include <cstdio>
#include <cstdlib>
int main() {
    long long n;
    if (scanf("%lld", &n) != 1) abort();
    for (;;) {
        printf("? 1\n");
        fflush(stdout);
        char reply[4];
        if (scanf("%3s", reply) != 1) abort();
        if (reply[0] == '=') {
            printf("! 1\n");
            fflush(stdout);
            return 0;
        }
    }
}
