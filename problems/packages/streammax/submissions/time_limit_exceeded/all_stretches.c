/* Tries every stretch: for each start, regenerates the readings after it and keeps the
 * best running sum. Right, and O(1) memory, but O(n^2) time: hopeless at n = 10^5 and
 * beyond. (It replaces a Python Kadane whose verdict depended on the interpreter: too
 * slow under CPython, fast enough under PyPy, and PyPy cannot even start under the
 * 32 MiB address-space limit that problemtools and BAPCtools set.) */
#include <stdio.h>

int main(void) {
    long long n, s, a, b, m;
    if (scanf("%lld %lld %lld %lld %lld", &n, &s, &a, &b, &m) != 5) return 1;
    unsigned long long start = (unsigned long long)s;
    long long half = m / 2, best = 0;
    for (long long l = 0; l < n; l++) {
        unsigned long long x = start;
        long long sum = 0;
        for (long long r = l; r < n; r++) {
            x = ((unsigned long long)a * x + (unsigned long long)b) % (unsigned long long)m;
            sum += (long long)x - half;
            if ((l == 0 && r == l) || sum > best) best = sum;
        }
        start = ((unsigned long long)a * start + (unsigned long long)b) % (unsigned long long)m;
    }
    printf("%lld\n", best);
    return 0;
}
