// Sums in a 32-bit int.
#include <iostream>

int main() {
    int n;
    std::cin >> n;
    int total = 0;
    for (int i = 0; i < n; i++) {
        int x;
        std::cin >> x;
        total = (int)((unsigned)total + (unsigned)x);
    }
    std::cout << total << "\n";
}
