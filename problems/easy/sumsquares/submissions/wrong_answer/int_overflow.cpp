// Adds the squares in a 32-bit int.
#include <iostream>

int main() {
    int n;
    std::cin >> n;
    unsigned total = 0;
    for (int i = 1; i <= n; i++) total += (unsigned)i * (unsigned)i;
    std::cout << (int)total << "\n";
}
