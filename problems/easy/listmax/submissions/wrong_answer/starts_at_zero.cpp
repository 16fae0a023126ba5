// Starts the maximum at 0: wrong when every value is negative.
#include <iostream>

int main() {
    int n;
    std::cin >> n;
    long long best = 0;
    for (int i = 0; i < n; i++) {
        long long x;
        std::cin >> x;
        if (x > best) best = x;
    }
    std::cout << best << "\n";
}
