// The difference in a 32-bit int: up to 2 * 10^9 does not fit.
#include <iostream>

int main() {
    int n, lo, hi, x;
    std::cin >> n >> x;
    lo = hi = x;
    for (int i = 1; i < n; i++) {
        std::cin >> x;
        if (x < lo) lo = x;
        if (x > hi) hi = x;
    }
    int spread = (int)((unsigned)hi - (unsigned)lo);
    std::cout << spread << "\n";
}
