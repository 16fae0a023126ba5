// Starts both the minimum and the maximum at 0: wrong unless the values straddle 0.
#include <iostream>

int main() {
    int n;
    std::cin >> n;
    long long lo = 0, hi = 0, x;
    for (int i = 0; i < n; i++) {
        std::cin >> x;
        if (x < lo) lo = x;
        if (x > hi) hi = x;
    }
    std::cout << hi - lo << "\n";
}
