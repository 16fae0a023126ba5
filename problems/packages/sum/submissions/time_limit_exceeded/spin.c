/* Reads the input, then never stops computing. */
#include <stdio.h>

int main(void) {
    int n;
    volatile unsigned long long counter = 0;
    if (scanf("%d", &n) != 1) return 1;
    for (;;) counter++;
}
